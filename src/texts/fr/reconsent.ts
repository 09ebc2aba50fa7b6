// La page des consentements à accepter de nouveau à la connexion (interaction/pages/reconsent.ts).
import type { Texts } from '../en/index.js';

export const reconsent: Texts['reconsent'] = {
  title: 'Consentements mis à jour',
  heading: (client: string) => `Avant de continuer vers ${client}`,
  signedInAs: (who: string) => `Vous êtes connecté en tant que ${who}.`,
  lead: 'Certaines conditions que vous avez acceptées ont changé. Veuillez lire la nouvelle version :',
  required: '(obligatoire)',
  optional: '(facultatif)',
  note: 'Une case non cochée est enregistrée comme un refus.',
  continue: 'Continuer',
  cancel: 'Annuler la connexion',
  mustAccept: (titles: string) =>
    `Votre connexion ne peut pas aboutir sans votre accord pour : ${titles}. Cochez la case pour continuer, ou annulez la connexion.`,
};
