import type { CustomFieldSetting } from '../../config/types.js';
import { escapeHtml } from '../../lib/html.js';

/**
 * The form control of a custom field, of the kind its type asks for (a checkbox, a list's select, a
 * number, date, email or phone input, else text); `attrs` names it (id, name, aria-*), `value` is
 * what the form showed before. The hosted signup and profile-completion pages use it.
 */
export function customFieldControl(
  f: CustomFieldSetting,
  attrs: string,
  value: string,
  opts: { required: boolean; choose: string },
): string {
  const required = opts.required ? ' required' : '';
  const input = (type: string, extra = '') =>
    `<input ${attrs} type="${type}"${extra} value="${escapeHtml(value)}"${required}>`;
  switch (f.data_type) {
    case 'boolean': {
      const checked = value === 'true' ? ' checked' : '';
      return `<input type="checkbox" ${attrs} value="true"${checked} style="width:auto"${required}>`;
    }
    case 'list': {
      const options = ['', ...(f.values ?? [])].map(
        (o) =>
          `<option value="${escapeHtml(o)}"${o === value ? ' selected' : ''}>${escapeHtml(o || opts.choose)}</option>`,
      );
      return `<select ${attrs}${required}>${options.join('')}</select>`;
    }
    case 'number':
      return input('number', ' step="any"');
    case 'integer':
      return input('number');
    case 'date':
      return input('date');
    case 'email':
      return input('email', ' autocomplete="email"');
    case 'phone':
      return input('tel', ' autocomplete="tel" placeholder="+33612345678"');
    default:
      return input('text', ' maxlength="1000"');
  }
}
