// La página de los consentimientos que aceptar de nuevo al iniciar sesión (interaction/pages/reconsent.ts).
import type { Texts } from '../en/index.js';

export const reconsent: Texts['reconsent'] = {
  title: 'Consentimientos actualizados',
  heading: (client: string) => `Antes de continuar a ${client}`,
  signedInAs: (who: string) => `Has iniciado sesión como ${who}.`,
  lead: 'Algo de lo que aceptaste ha cambiado. Lee la nueva versión:',
  required: '(obligatorio)',
  optional: '(opcional)',
  note: 'Una casilla sin marcar se registra como rechazo.',
  continue: 'Continuar',
  cancel: 'Cancelar el inicio de sesión',
  mustAccept: (titles: string) =>
    `No se puede completar el inicio de sesión sin tu acuerdo con: ${titles}. Márcalo para continuar o cancela el inicio de sesión.`,
};
