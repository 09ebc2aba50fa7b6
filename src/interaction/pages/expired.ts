import type { Page } from '../../lib/html.js';

/** A hosted form whose interaction is gone, finished, foreign or bound to another browser. */
export const expiredFormPage = (): Page => ({
  status: 403,
  title: 'Sign-in expired',
  body: '<h1>This sign-in form has expired</h1><p>Go back to the application and start again.</p>',
});

/** A provider's answer (or a link) that does not belong to a sign-in started in this browser. */
export const expiredSocialPage = (): Page => ({
  status: 400,
  title: 'Sign-in expired',
  body: '<h1>This sign-in has expired or did not start here</h1><p>Go back to the application and start again.</p>',
});
