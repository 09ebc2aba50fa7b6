import { publicConsents } from '../../accounts/user-consents.js';
import { type Captcha, isCaptchaRefusal } from '../../captcha/siteverify.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { signupFormSchema, signupPageSchema } from './schemas/authorize.js';
import { customFieldFromForm } from '../../accounts/custom-field-form.js';
import { isCheckbox } from '../../accounts/custom-field-types.js';
import { WardError } from '../../errors/ward-error.js';
import type { Interaction } from '../../interaction/service.js';
import { signupPage, signupSentPage } from '../../interaction/pages/signup.js';
import type { SignInDeps } from '../sign-in.js';
import { sendRendered } from '../pages.js';
import {
  acceptHostedPost,
  answerOutcome,
  browserState,
  ensureCsrf,
  expiredPage,
  interactionAtLogin,
} from './hosted-form.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import type { AccountSettings, WardConfig, CustomFieldSetting } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Addresses } from '../../self-service/addresses.js';
import type { LiteClaims } from '../../self-service/lite-claim.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeSignupDeps {
  account: () => AccountSettings;
  captcha: Pick<Captcha, 'checkHosted' | 'widget'>;
  addresses: Addresses;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  limiter: Limiter;
  masterKey: Buffer;
  storage: Storage;
  users: UserService;
  liteClaims: Pick<LiteClaims, 'start'>;
}

const TEXT_FIELDS = ['email', 'given_name', 'family_name'] as const;

/** The custom fields a user fills in at signup: those the user may write. */
const userFields = (fields: CustomFieldSetting[]) => fields.filter((f) => f.writable === 'user');

/** The consents the page offers (the active definitions), in its language. */
type OfferedConsents = ReturnType<typeof publicConsents>;

/** The Core SDK's signup data from the hosted form: what was filled in, nothing invented. */
function signupData(params: Record<string, unknown>, fields: CustomFieldSetting[], offered: OfferedConsents) {
  const data: Record<string, unknown> = { email: params.email, password: params.password };
  for (const k of ['given_name', 'family_name'] as const)
    if (typeof params[k] === 'string' && params[k] !== '') data[k] = params[k];
  const custom: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = params[`cf_${f.name}`];
    if (typeof raw === 'string' && raw !== '') custom[f.name] = customFieldFromForm(f, raw);
    else if (isCheckbox(f)) custom[f.name] = false; // an unchecked box posts nothing
  }
  if (Object.keys(custom).length) data.custom_fields = custom;
  // A checked box grants the version shown, in the language shown; an unchecked one records nothing.
  const consents: Record<string, unknown> = {};
  for (const c of offered)
    if (params[`consent_${c.key}`] === '1')
      consents[c.key] = { granted: true, consent_version: { version_id: c.version_id, language: c.language } };
  if (Object.keys(consents).length) data.consents = consents;
  return data;
}

/** What the form showed, to show it again (never the password). */
function typedValues(
  params: Record<string, unknown>,
  fields: CustomFieldSetting[],
  offered: OfferedConsents,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...TEXT_FIELDS, ...fields.map((f) => `cf_${f.name}`), ...offered.map((c) => `consent_${c.key}`)]) {
    const v = params[k];
    if (typeof v === 'string') out[k] = v.slice(0, 1000);
  }
  return out;
}

/**
 * The hosted signup page of a sign-in in progress (linked from the login page): the account is
 * created with the same rules as the Core SDK's signup, and the sign-in goes on through the next-step
 * function; when the account requires a confirmed email first, the page says to check the mail.
 */
export function signupPageRoutes(
  app: WardApp,
  r: AuthorizeSignupDeps,
  deps: Pick<SignInDeps, 'interactions' | 'nextStep'>,
): void {
  const { interactions, nextStep } = deps;
  const loginHref = (handle: string) => `/oauth/authorize/login?interaction=${encodeURIComponent(handle)}`;

  function page(
    req: FastifyRequest,
    reply: FastifyReply,
    at: { handle: string; interaction: Interaction },
    status = 200,
    extra: { error?: string; values?: Record<string, string> } = {},
  ) {
    const { client } = at.interaction.request;
    const language = pageLanguage(req, at.interaction.request);
    return sendRendered(
      reply,
      signupPage(status, {
        clientId: client.client_id,
        clientName: client.name,
        interaction: at.handle,
        csrf: ensureCsrf(r, req, reply),
        language,
        customFields: userFields(r.account().custom_fields),
        consents: publicConsents(r.account().consents, language),
        minLength: r.account().password_min_length,
        values: extra.values ?? {},
        error: extra.error,
        loginHref: loginHref(at.handle),
        target: at.interaction.request.target,
        captcha: r.captcha.widget('signup'),
      }),
    );
  }

  app.get('/oauth/authorize/signup', { schema: signupPageSchema }, async (req, reply) => {
    const at = await interactionAtLogin(interactions, req);
    return at ? page(req, reply, at) : expiredPage(req, reply);
  });

  app.post('/oauth/authorize/signup', { schema: signupFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    if (interaction.step !== 'login') return expiredPage(req, reply, interaction.request);
    const at = { handle, interaction };
    const fields = userFields(r.account().custom_fields);
    const language = pageLanguage(req, interaction.request);
    const offered = publicConsents(r.account().consents, language);
    const values = typedValues(params, fields, offered);
    const clientId = interaction.request.client.client_id;
    let made: Awaited<ReturnType<typeof r.users.signupOrClaim>>;
    let signedUp: StagedEvent | undefined;
    const locale = requestLanguage(req, { uiLocales: interaction.request.uiLocales });
    try {
      await r.limiter('signup', req.ip, r.account().rate_limits.signup);
      await r.captcha.checkHosted('signup', params, req.ip);
      // The signup's webhook event is written with the user, in its transaction.
      made = await r.users.signupOrClaim(signupData(params, fields, offered), {
        within: async (tx, u) => {
          signedUp = await r.events.stage(tx, 'account.signup', {
            client_id: clientId,
            user_id: u.id,
            method: 'hosted_page',
          });
        },
        // A lite profile's email: the mailed link finishes it (docs/profiles.md, "Lite profiles").
        claim: async (lite, claim) => r.liteClaims.start(lite, claim, { clientId, locale }),
      });
    } catch (e) {
      if (!(e instanceof WardError) || (e.status >= 500 && !isCaptchaRefusal(e))) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      // The field details are English (the validator's); a French page shows the catalog's French message.
      const details = e.details?.map(
        (d) => `${d.field.replace(/^data\.(custom_fields\.|consents\.)?/, '')}: ${d.message}`,
      );
      const error = language === 'en' && details?.length ? details.join(' ') : e.userMessage(language);
      return page(req, reply, at, e.status, { error, values });
    }
    // A claim shows what a signup whose email must be confirmed shows, and nothing of the profile.
    if (!('user' in made)) return sendRendered(reply, signupSentPage(language, made.claimed, loginHref(handle)));
    const { user } = made;
    if (signedUp) r.events.emitStaged(signedUp, 'signup');
    const verification = r.account().self_service.email_verification;
    if (verification !== 'off' && user.email) {
      r.addresses.sendSignupVerification(user, { clientId, locale });
      if (verification === 'required')
        return sendRendered(reply, signupSentPage(language, user.email, loginHref(handle)));
    }
    const who = { user, amr: ['pwd'], authTime: r.clock.now(), method: 'password' as const, detail: { signup: true } };
    return answerOutcome(
      r,
      req,
      reply,
      await nextStep.afterFirstFactor(interaction, who, browserState(req, reply, interaction.request)),
    );
  });
}
