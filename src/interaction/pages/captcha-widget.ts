import type { CaptchaWidget } from '../../captcha/widget.js';
import { html, type PageOptions, type SafeHtml } from '../../lib/html.js';

/** The element a captcha provider's script draws its widget in, inside a hosted form (empty without one). */
export const captchaBox = (w: CaptchaWidget | null | undefined): SafeHtml | '' =>
  w ? html`<div class="${w.className} captcha" data-sitekey="${w.siteKey}"></div>` : '';

/** The page options that load the widget's script (the first widget's: one provider per account). */
export function captchaScript(widgets: Array<CaptchaWidget | null | undefined>): Pick<PageOptions, 'externalScript'> {
  const w = widgets.find((x) => x);
  return w ? { externalScript: { src: w.script, sources: w.sources } } : {};
}
