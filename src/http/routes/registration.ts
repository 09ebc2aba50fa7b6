import type { WardApp } from '../typed-app.js';
import {
  deleteRegistrationSchema,
  readRegistrationSchema,
  registerSchema,
  updateRegistrationSchema,
} from './schemas/registration.js';
import type { Registrations } from '../../clients/registration.js';
import type { AccountSettings } from '../../config/types.js';
import type { Limiter } from '../../limits/rate-limit.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface RegistrationRoutesDeps {
  account: () => AccountSettings;
  limiter: Limiter;
  registrations: Registrations;
}

/**
 * Dynamic Client Registration (RFC 7591) and the client configuration endpoint (RFC 7592), JSON in
 * and out, never cached (the answers carry credentials). Every call counts against the account's
 * `registration` rate limit per IP; clients/registration.ts decides and audits.
 */
export function registrationRoutes(app: WardApp, r: RegistrationRoutesDeps): void {
  const limit = (ip: string) => r.limiter('registration', ip, r.account().rate_limits.registration);

  app.post('/oauth/register', { schema: registerSchema }, async (req, reply) => {
    await limit(req.ip);
    const body = await r.registrations.register(req.body, req.headers.authorization, req.ip);
    return reply.code(201).header('Cache-Control', 'no-store').send(body);
  });

  app.get('/oauth/register/:client_id', { schema: readRegistrationSchema }, async (req, reply) => {
    await limit(req.ip);
    const body = await r.registrations.read(String(req.params.client_id), req.headers.authorization, req.ip);
    return reply.header('Cache-Control', 'no-store').send(body);
  });

  app.put('/oauth/register/:client_id', { schema: updateRegistrationSchema }, async (req, reply) => {
    await limit(req.ip);
    const id = String(req.params.client_id);
    const body = await r.registrations.update(id, req.headers.authorization, req.body, req.ip);
    return reply.header('Cache-Control', 'no-store').send(body);
  });

  app.delete('/oauth/register/:client_id', { schema: deleteRegistrationSchema }, async (req, reply) => {
    await limit(req.ip);
    await r.registrations.remove(String(req.params.client_id), req.headers.authorization, req.ip);
    return reply.code(204).send();
  });
}
