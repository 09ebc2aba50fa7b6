// Die Seite der erneut anzunehmenden Einwilligungen bei der Anmeldung (interaction/pages/reconsent.ts).
import type { Texts } from '../en/index.js';

export const reconsent: Texts['reconsent'] = {
  title: 'Aktualisierte Einwilligungen',
  heading: (client: string) => `Bevor Sie zu ${client} weitergehen`,
  signedInAs: (who: string) => `Sie sind angemeldet als ${who}.`,
  lead: 'Etwas, dem Sie zugestimmt haben, hat sich geändert. Bitte lesen Sie die neue Fassung:',
  required: '(erforderlich)',
  optional: '(optional)',
  note: 'Ein nicht angekreuztes Kästchen wird als Ablehnung gespeichert.',
  continue: 'Weiter',
  cancel: 'Anmeldung abbrechen',
  mustAccept: (titles: string) =>
    `Ohne Ihre Zustimmung zu folgendem kann die Anmeldung nicht abgeschlossen werden: ${titles}. Kreuzen Sie es an, um fortzufahren, oder brechen Sie die Anmeldung ab.`,
};
