// The device verification pages (RFC 8628, interaction/pages/device.ts). Français.
import type { Texts } from '../en/index.js';

export const device: Texts['device'] = {
  title: 'Connecter un appareil',
  heading: 'Connecter un appareil',
  lead: 'Saisissez le code affiché par votre appareil.',
  codeLabel: 'Code',
  submit: 'Continuer',
  unknownCode: "Ce code n'est pas valide ou a expiré. Vérifiez le code sur votre appareil et réessayez.",
  tooMany: 'Trop de tentatives. Patientez un instant puis réessayez.',
  approveHeading: (client: string) => `Connecter ${client} sur votre appareil ?`,
  approveLead: (client: string) =>
    `N'autorisez que si vous avez vous-même lancé la demande sur votre appareil. Si vous l'autorisez, ${client} pourra :`,
  approvedHeading: 'Appareil connecté',
  approvedText: 'Vous pouvez revenir à votre appareil.',
  deniedHeading: 'Accès refusé',
  deniedText: "L'appareil n'a pas reçu l'accès. Vous pouvez fermer cette page.",
  expiredHeading: 'Cette demande a expiré',
  expiredText: 'Recommencez sur votre appareil pour obtenir un nouveau code.',
};
