import type { FastifyReply } from 'fastify';
import type { WardApp } from '../typed-app.js';
import type { ProfileService } from '../../accounts/profiles.js';
import type { AccountSettings } from '../../config/types.js';
import { WardError } from '../../errors/ward-error.js';
import type { AccountNotice } from '../../interaction/pages/account-text.js';
import { accountText } from '../../interaction/pages/account-text.js';
import type { AccountPageInput } from '../../interaction/pages/account.js';
import {
  formOfProfile,
  inputOf,
  profileInput,
  type ProfileFormValues,
  typedProfile,
} from '../../self-service/profile-form.js';
import type { User } from '../../storage/sql/users.js';
import { accountProfileSchema } from './schemas/account.js';
import type { AccountKit, AccountWho } from './account-kit.js';

/** What "Your profile" adds to the page it renders: the form as a post left it. */
export type ProfileExtra = Pick<AccountPageInput, 'back' | 'error'> & {
  profileForm?: { values: ProfileFormValues; errors?: Record<string, string> };
};

export interface AccountProfileKit<W extends AccountWho> extends AccountKit<W, ProfileExtra> {
  seeOther(reply: FastifyReply, notice: AccountNotice | null, back: AccountPageInput['back']): FastifyReply;
}

export interface AccountProfileDeps {
  account: () => AccountSettings;
  profiles: ProfileService;
}

/** The custom fields the account page offers: those the user may write. */
const userFields = (r: AccountProfileDeps) => r.account().custom_fields.filter((f) => f.writable === 'user');

/** "Your profile" as the page shows it: the form as the last post left it, else the stored profile. */
export async function profileView(
  r: AccountProfileDeps,
  user: User,
  form: ProfileExtra['profileForm'],
): Promise<NonNullable<AccountPageInput['profile']>> {
  const fields = userFields(r);
  return { ...(form ?? { values: formOfProfile(user, await r.profiles.of(user.id), fields) }), fields };
}

/**
 * The account page's "Your profile" (docs/self-service.md): names, full name, nickname, birthdate,
 * company, bio, the default address and the custom fields the user may write, changed without a step-up
 * (never the email address or phone number: their own forms, after a proof). Only what differs from the
 * stored profile is written, by the one profile validator; a refusal shows the form again as typed, each
 * problem beside its field. The change is audited as `user.profile_updated` (the webhook event
 * `user.updated`), like the Core SDK's updateProfile.
 */
export function accountProfileRoutes<W extends AccountWho>(
  app: WardApp,
  r: AccountProfileDeps,
  page: AccountProfileKit<W>,
) {
  app.post('/identity/v1/account/profile', { schema: accountProfileSchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    const fields = userFields(r);
    const values = typedProfile(a.params, fields);
    return page.attempt(req, reply, a, 'profile', { back: a.back, profileForm: { values } }, async () => {
      const user = a.who.session.user;
      const input = profileInput(values, user, await r.profiles.of(user.id), fields);
      let change: ReturnType<ProfileService['read']>;
      try {
        change = r.profiles.read(input, { writer: 'user', prefix: '', mode: 'update' });
      } catch (e) {
        if (!(e instanceof WardError) || e.id !== 'profileInvalid') throw e;
        const errors: Record<string, string> = {};
        for (const d of e.details ?? []) errors[inputOf(d)] ??= d.code === 'missing' ? 'missing' : 'invalid';
        return page.render(req, reply, a.who, 400, {
          back: a.back,
          error: { text: accountText(a.who.language).profile.problems, at: 'profile' },
          profileForm: { values, errors },
        });
      }
      await r.profiles.apply(user, change, { type: 'user', id: user.id, ip: req.ip });
      return page.seeOther(reply, 'profile_saved', a.back);
    });
  });
}
