import type { CustomFieldSetting } from '../../config/types.js';
import { html, type SafeHtml } from '../../lib/html.js';

/**
 * The form control of a custom field, of the kind its type asks for (a checkbox, a list's select, a
 * number, date, email or phone input, else text: tags are written separated by commas, an object as JSON); `attrs` names it (id, name, aria-*), `value` is
 * what the form showed before (markup of the page's own, built with the html template). The hosted
 * signup, profile-completion and account pages use it.
 */
export function customFieldControl(
  f: CustomFieldSetting,
  attrs: SafeHtml,
  value: string,
  opts: {
    required: boolean;
    choose: string;
    /** A select's option label (its value when none is given). */
    label?: (value: string) => string;
  },
): SafeHtml {
  const required = opts.required && html` required`;
  const input = (type: string, extra?: SafeHtml) =>
    html`<input ${attrs} type="${type}"${extra} value="${value}"${required}>`;
  switch (f.data_type) {
    case 'boolean':
    case 'checkbox': {
      const checked = value === 'true' && html` checked`;
      return html`<input type="checkbox" ${attrs} value="true"${checked} style="width:auto"${required}>`;
    }
    case 'list':
    case 'select': {
      const options = ['', ...(f.values ?? [])].map(
        (o) =>
          html`<option value="${o}"${o === value && html` selected`}>${o ? (opts.label?.(o) ?? o) : opts.choose}</option>`,
      );
      return html`<select ${attrs}${required}>${options}</select>`;
    }
    case 'number':
    case 'decimal':
      return input('number', html` step="any"`);
    case 'integer':
      return input('number');
    case 'date':
      return input('date');
    case 'email':
      return input('email', html` autocomplete="email"`);
    case 'phone':
      return input('tel', html` autocomplete="tel" placeholder="+33612345678"`);
    default:
      return input('text', html` maxlength="1000"`);
  }
}
