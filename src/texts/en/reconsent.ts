// The page of consents to accept again at sign-in (interaction/pages/reconsent.ts). English: the reference language.
export const reconsent = {
  title: 'Updated consents',
  heading: (client: string) => `Before you continue to ${client}`,
  signedInAs: (who: string) => `You are signed in as ${who}.`,
  lead: 'Some of what you agreed to has changed. Please read the new version:',
  required: '(required)',
  optional: '(optional)',
  note: 'An unchecked box is recorded as declined.',
  continue: 'Continue',
  cancel: 'Cancel sign-in',
  /** A required consent left unchecked: the sign-in does not go on. */
  mustAccept: (titles: string) =>
    `Your sign-in cannot be completed without your agreement to: ${titles}. Check it to continue, or cancel the sign-in.`,
};
