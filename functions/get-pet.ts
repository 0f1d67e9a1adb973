/** `GET /pets/{petId}` (getPet): one animal by id. */
import { integerText, PetIdPath } from '#lib/domain/requests.ts';
import { apiHandler } from '#lib/http/api-handler.ts';
import { HttpError } from '#lib/http/errors.ts';
import { json } from '#lib/http/response.ts';
import { validate } from '#lib/http/validate.ts';
import { getPet } from '#lib/operations/get-pet.ts';
import { services } from '#lib/services.ts';

export const handler = apiHandler(getPet, async (event, { signal }) => {
  const { petId } = validate(PetIdPath, { petId: integerText(event.pathParameters?.petId ?? '') }, 'path parameter');
  const pet = await services().pets.get(petId, { signal });
  if (!pet) throw new HttpError('not_found', `No pet exists with id ${petId}.`);
  return json(200, pet);
});
