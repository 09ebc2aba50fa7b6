// "Your profile" on the hosted account page (account.ts), in the page's language: the fields a user
// changes without a proof (self-service/profile-form.ts), the default address and the custom fields they
// may write, each with the problem of the last post beside it. Posted with the page's CSRF token.
import { customFieldLabel, customValueLabel } from '../../accounts/custom-field-form.js';
import { isCheckbox } from '../../accounts/custom-field-types.js';
import type { CustomFieldSetting } from '../../config/types.js';
import { html, joinHtml, type SafeHtml } from '../../lib/html.js';
import { ADDRESS_PARTS, type PROFILE_TEXT_FIELDS } from '../../self-service/profile-form.js';
import { type AccountPageInput, alertIn, form, section, submit } from './account-parts.js';
import { accountText } from './account-text.js';
import { customFieldControl } from './custom-field-control.js';

type ProfileTexts = ReturnType<typeof accountText>['profile'];

/** The longest value of each text input (the validator's rules, said on the page). */
const MAX: Record<string, number> = {
  given_name: 200,
  family_name: 200,
  name: 300,
  nickname: 200,
  company: 200,
  bio: 2000,
  address_street_address: 500,
  address_address_complement: 500,
  address_postal_code: 40,
  address_locality: 200,
  address_region: 200,
  address_country: 100,
};

/** How the problem of an input reads: missing, or what its value must be. */
function problemText(t: ProfileTexts, name: string, code: string, fields: CustomFieldSetting[]): string {
  if (code === 'missing') return t.required;
  if (name === 'birthdate') return t.birthdateRule;
  if (MAX[name]) return t.tooLong(MAX[name]);
  const f = fields.find((x) => `cf_${x.name}` === name);
  switch (f?.data_type) {
    case 'number':
    case 'decimal':
      return t.number;
    case 'integer':
      return t.integer;
    case 'date':
      return t.date;
    case 'select':
    case 'list':
      return t.select;
    case 'tags':
      return t.tags;
    case 'object':
      return t.object;
    case 'email':
      return t.email;
    case 'phone':
      return t.phone;
    case 'string':
      return t.tooLong(1000);
    default:
      return t.invalid;
  }
}

export function profileSection(p: AccountPageInput): SafeHtml | null {
  const form_ = p.profile;
  if (!form_) return null;
  const t = accountText(p.language).profile;
  const value = (name: string) => form_.values[name] ?? '';
  /** A labelled control, described by its hint and its problem (if any). */
  const field = (name: string, label: string, control: (attrs: SafeHtml) => SafeHtml, hint?: string) => {
    const id = `profile-${name.replace(/_/g, '-')}`;
    const code = form_.errors?.[name];
    const ids = [...(hint ? [`${id}-hint`] : []), ...(code ? [`${id}-error`] : [])];
    const described = ids.length > 0 && html` aria-describedby="${ids.join(' ')}"`;
    const invalid = code && html` aria-invalid="true"`;
    const attrs = html`id="${id}" name="${name}"${described}${invalid}`;
    const hintP = hint && html`<p class="muted" id="${id}-hint">${hint}</p>`;
    const error = code && html`<p class="error" id="${id}-error">${problemText(t, name, code, form_.fields)}</p>`;
    return html`<label for="${id}">${label}</label>${control(attrs)}${hintP}${error}`;
  };
  const text = (name: string, label: string, extra?: SafeHtml, hint?: string) =>
    field(
      name,
      label,
      (a) => html`<input ${a} type="text" maxlength="${MAX[name] ?? 1000}"${extra} value="${value(name)}">`,
      hint,
    );
  const area = (name: string, label: string) =>
    field(name, label, (a) => html`<textarea ${a} rows="3" maxlength="${MAX[name]!}">${value(name)}</textarea>`);
  const labels: Record<(typeof PROFILE_TEXT_FIELDS)[number], string> = {
    given_name: t.givenName,
    family_name: t.familyName,
    name: t.name,
    nickname: t.nickname,
    birthdate: t.birthdate,
    company: t.company,
    bio: t.bio,
  };
  const own = [
    text('given_name', labels.given_name, html` autocomplete="given-name"`),
    text('family_name', labels.family_name, html` autocomplete="family-name"`),
    text('name', labels.name, html` autocomplete="name"`, t.nameHint),
    text('nickname', labels.nickname, html` autocomplete="nickname"`),
    field('birthdate', labels.birthdate, (a) => html`<input ${a} type="date" value="${value('birthdate')}">`),
    text('company', labels.company, html` autocomplete="organization"`),
    area('bio', labels.bio),
  ];
  const partLabels: Record<(typeof ADDRESS_PARTS)[number], string> = {
    street_address: t.streetAddress,
    address_complement: t.addressComplement,
    postal_code: t.postalCode,
    locality: t.locality,
    region: t.region,
    country: t.country,
  };
  const auto: Record<(typeof ADDRESS_PARTS)[number], string> = {
    street_address: 'address-line1',
    address_complement: 'address-line2',
    postal_code: 'postal-code',
    locality: 'address-level2',
    region: 'address-level1',
    country: 'country-name',
  };
  const parts = ADDRESS_PARTS.map((k) =>
    k === 'street_address'
      ? field(
          `address_${k}`,
          partLabels[k],
          (a) =>
            html`<textarea ${a} rows="2" maxlength="500" autocomplete="${auto[k]}">${value(`address_${k}`)}</textarea>`,
        )
      : text(`address_${k}`, partLabels[k], html` autocomplete="${auto[k]}"`),
  );
  const addressError = form_.errors?.address && html`<p class="error" id="profile-address-error">${t.invalid}</p>`;
  const address = html`<fieldset><legend>${t.address}</legend>${addressError}${joinHtml(parts, html`\n`)}</fieldset>`;
  const custom = form_.fields.map((f) => {
    const name = `cf_${f.name}`;
    const label = customFieldLabel(f, p.language);
    const control = (a: SafeHtml) =>
      customFieldControl(f, a, value(name), {
        required: false,
        choose: t.choose,
        label: (v) => customValueLabel(f, v, p.language),
      });
    return isCheckbox(f) ? field(name, `${label}: ${t.yes}`, control) : field(name, label, control);
  });
  const inner = html`${alertIn(p, 'profile')}<p class="muted">${t.lead}</p>${joinHtml([...own, address, ...custom], html`\n`)}${submit(t.save)}`;
  return section('profile', t.heading, form(p, '/profile', inner));
}
