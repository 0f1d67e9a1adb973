/** `POST /pets` (createPet, spec §4.2): add an animal; 201 with the Pet and its assigned id. */
import { NewPet } from '../lib/domain/pet.ts';
import { jsonApiHandler } from '../lib/http/api-handler.ts';
import { json } from '../lib/http/response.ts';
import { absoluteUrl } from '../lib/http/urls.ts';
import { validate } from '../lib/http/validate.ts';
import { API_BASE_PATH } from '../lib/routes.ts';
import { services } from '../lib/services.ts';

export const handler = jsonApiHandler('createPet', async (event) => {
  const newPet = validate(NewPet, event.body, 'request body');
  const pet = await services().pets.create(newPet);
  return json(201, pet, { Location: absoluteUrl(event, `${API_BASE_PATH}/pets/${pet.id}`) });
});
