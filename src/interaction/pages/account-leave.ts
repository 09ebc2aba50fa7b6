// The account page's "Your data" (a JSON download of everything kept about the user) and "Delete your
// account" (the password, or a code sent to a user without one, and an explicit confirmation), and the
// page that follows a deletion. docs/self-service.md describes the flow.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page, type SafeHtml } from '../../lib/html.js';
import {
  ACCOUNT_PATH,
  type AccountPageInput,
  alertIn,
  CODE_ATTRS,
  form,
  input,
  section,
  submit,
} from './account-parts.js';
import { textsIn } from '../../texts/texts.js';
import { accountText } from './account-text.js';

export const DATA_PATH = `${ACCOUNT_PATH}/data`;

const leaveText = (language: Language) => accountText(language).leave;

function dataSection(p: AccountPageInput): SafeHtml {
  const t = leaveText(p.language);
  return section(
    'data',
    t.dataHeading,
    html`<p>${t.dataLead}</p><p><a id="download-data" href="${DATA_PATH}" download>${t.dataLink}</a></p>`,
  );
}

function deleteSection(p: AccountPageInput, leave: NonNullable<AccountPageInput['leave']>): SafeHtml {
  const t = leaveText(p.language);
  const confirm = html`<p><input type="checkbox" id="delete-confirm" name="confirm" value="yes" required>
<label for="delete-confirm">${t.confirm}</label></p>`;
  let proof: SafeHtml | null;
  let ask: SafeHtml | null = null;
  if (p.user.hasPassword) {
    proof = input(p, 'delete', {
      id: 'delete-password',
      label: t.password,
      attrs: html`name="password" type="password" autocomplete="current-password"`,
    });
  } else if (leave.codeSent) {
    proof = html`<p>${t.codeSent(leave.codeSent)}</p>${input(p, 'delete', { id: 'delete-code', label: t.code, attrs: CODE_ATTRS })}`;
  } else {
    proof = null;
    ask = form(p, '/delete/code', submit(t.sendCode, true));
  }
  const erase = proof && form(p, '/delete', html`${proof}${confirm}${submit(t.button)}`);
  return section(
    'delete',
    t.deleteHeading,
    html`${alertIn(p, 'delete')}<p>${t.deleteLead(leave.graceDays)}</p>${ask}${erase}`,
  );
}

/** Both sections, when the page has them (not while a step-up is owed). */
export function leaveSections(p: AccountPageInput): SafeHtml | null {
  if (!p.leave) return null;
  return html`${dataSection(p)}${p.leave.deletion && deleteSection(p, p.leave)}`;
}

/** After the deletion: erased (`dueAt` null), or signed out and erased on that day. */
export function accountLeftPage(language: Language, dueAt: number | null): Page {
  const t = leaveText(language);
  const title = dueAt === null ? t.deletedTitle : t.scheduledTitle;
  const lead =
    dueAt === null
      ? t.deletedLead
      : t.scheduledLead(
          new Intl.DateTimeFormat(textsIn(language).messages.dateLocale, { dateStyle: 'long', timeZone: 'UTC' }).format(
            dueAt,
          ),
        );
  return { status: 200, lang: language, title, body: html`<h1>${title}</h1><p role="status" id="notice">${lead}</p>` };
}
