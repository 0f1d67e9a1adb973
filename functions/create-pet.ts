/** `POST /pets` (createPet): add an animal; 201 with the Pet and its assigned id. */
import { NewPet } from '#lib/domain/pet.ts';
import { apiChain } from '#lib/http/api-handler.ts';
import { callerId } from '#lib/http/bearer-auth.ts';
import { idempotencyKey } from '#lib/http/idempotency-key.ts';
import { type JsonBodyEvent, jsonBody } from '#lib/http/json-body.ts';
import { json } from '#lib/http/response.ts';
import { API_BASE_PATH, absoluteUrl } from '#lib/http/urls.ts';
import { validate } from '#lib/http/validate.ts';
import { createPet } from '#lib/operations/create-pet.ts';
import { idempotencyRecordKey } from '#lib/store/idempotency.ts';
import { services } from '#lib/services.ts';

export const handler = apiChain<JsonBodyEvent>(createPet, jsonBody(NewPet)).handler(async (event) => {
  const newPet = validate(NewPet, event.body, 'request body');
  const key = idempotencyKey(event);
  const { pet, replayed } = await services().pets.create(
    newPet,
    key === undefined ? {} : { idempotencyKey: idempotencyRecordKey(callerId(event), key) },
  );
  return json(201, pet, {
    Location: absoluteUrl(event, `${API_BASE_PATH}/pets/${pet.id}`),
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  });
});
