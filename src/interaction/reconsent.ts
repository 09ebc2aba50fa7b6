// Consents to accept again at sign-in (docs/profiles.md#consents): when a consent definition's new
// version asks it (`require_reconsent`, accounts/consent-renewal.ts), a user who signs in through the
// hosted pages, or whom an SSO session would answer, is shown the updated consents before any code is
// issued. The interaction moves to `reconsent` (after a sign-in: the session starts once they are
// answered) or `reconsent_session` (an SSO session's: it goes on in that session), under a new handle;
// http/routes/authorize-reconsent.ts answers the page. Where no page can be shown (prompt=none,
// web_message, an identity API call answered in JSON) the sign-in is refused with interaction_required.
import type { ConsentDefinitionSetting } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import { consentCanBeShown } from './consent.js';
import type { BrowserState, Outcome, SignedIn } from './outcome.js';
import type { Interaction, InteractionService } from './service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ReconsentDeps {
  interactions: InteractionService;
  /** The definitions the user must answer again (accounts/consent-renewal.ts). */
  owed(userId: string): Promise<ConsentDefinitionSetting[]>;
  emit(name: string, detail: Record<string, unknown>, message: string): Promise<void>;
}

/** Where the step comes: after a sign-in, or before an SSO session answers. */
export type ReconsentStep = 'reconsent' | 'reconsent_session';

export function createReconsentStep(deps: ReconsentDeps) {
  return {
    owed: deps.owed,

    /**
     * The page of the consents to answer, or null when the user owes none. `api`: the caller answers
     * JSON (no page): refused, like a request that cannot show one.
     */
    async ask(
      at: Interaction | AuthorizeRequest,
      who: Pick<SignedIn, 'user' | 'amr' | 'authTime'>,
      browser: BrowserState,
      step: ReconsentStep,
      api = false,
    ): Promise<Outcome | null> {
      const consents = await deps.owed(who.user.id);
      if (!consents.length) return null;
      const request = 'digest' in at ? at.request : at;
      const detail = { user_id: who.user.id, client_id: request.client.client_id, keys: consents.map((d) => d.key) };
      const shown = !api && !!browser.bind && consentCanBeShown(request);
      if (!shown) {
        await deps.emit('user.reconsent_refused', { ...detail, where: 'no_page' }, 'consents to renew, no page');
        const description = 'The user must accept updated consents on the hosted pages';
        throw new WardError(
          'authorizeReconsentRequired',
          api ? { description } : { description, authorizeRequest: request },
        );
      }
      const stored = 'digest' in at ? at : (await deps.interactions.start(at, 'login', browser.bind!())).interaction;
      const moved = await deps.interactions.advance(stored, step, {
        userId: who.user.id,
        amr: who.amr,
        authTime: who.authTime,
      });
      if (!moved) return { kind: 'expired', request: stored.request };
      await deps.emit('user.reconsent_shown', detail, 'consents to renew shown');
      return { kind: 'reconsent', ...moved, consents };
    },
  };
}

export type ReconsentStepService = ReturnType<typeof createReconsentStep>;
