// `GET /pets`: a plain array, as the spec says; a further page is a `Link: rel="next"` with the opaque `cursor`.
import { ListPetsQuery } from '#lib/domain/requests.ts';
import { apiHandler } from '#lib/http/api-handler.ts';
import { decodeCursor, encodeCursor } from '#lib/http/cursor.ts';
import { queryParameters } from '#lib/http/query.ts';
import { json } from '#lib/http/response.ts';
import { absoluteUrl } from '#lib/http/urls.ts';
import { validate } from '#lib/http/validate.ts';
import { listPets } from '#lib/operations/list-pets.ts';
import { services } from '#lib/services.ts';

export const handler = apiHandler(listPets, async (event, { signal }) => {
  const { limit, status, cursor } = validate(ListPetsQuery, queryParameters(event, ['limit']), 'query parameter');
  const afterId = cursor === undefined ? undefined : decodeCursor(cursor, status);
  const page = await services().pets.list({ limit, status, afterId }, { signal });
  if (page.nextAfterId === undefined) return json(200, page.pets);
  const next = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}), cursor: encodeCursor(status, page.nextAfterId) });
  // The resource, not the path as sent: `/v1//pets` is routed here too, and is not echoed.
  return json(200, page.pets, { Link: `<${absoluteUrl(event, event.resource, next)}>; rel="next"` });
});
