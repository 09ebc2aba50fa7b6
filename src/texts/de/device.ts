// The device verification pages (RFC 8628, interaction/pages/device.ts). Deutsch.
import type { Texts } from '../en/index.js';

export const device: Texts['device'] = {
  title: 'Gerät verbinden',
  heading: 'Gerät verbinden',
  lead: 'Geben Sie den Code ein, den Ihr Gerät anzeigt.',
  codeLabel: 'Code',
  submit: 'Weiter',
  unknownCode:
    'Dieser Code ist ungültig oder abgelaufen. Prüfen Sie den Code auf Ihrem Gerät und versuchen Sie es erneut.',
  tooMany: 'Zu viele Versuche. Warten Sie einen Moment und versuchen Sie es erneut.',
  approveHeading: (client: string) => `${client} auf Ihrem Gerät verbinden?`,
  approveLead: (client: string) =>
    `Erlauben Sie dies nur, wenn Sie es selbst auf Ihrem Gerät gestartet haben. Wenn Sie es erlauben, darf ${client}:`,
  approvedHeading: 'Gerät verbunden',
  approvedText: 'Sie können zu Ihrem Gerät zurückkehren.',
  deniedHeading: 'Zugriff verweigert',
  deniedText: 'Das Gerät hat keinen Zugriff erhalten. Sie können diese Seite schließen.',
  expiredHeading: 'Diese Anfrage ist abgelaufen',
  expiredText: 'Beginnen Sie auf Ihrem Gerät erneut, um einen neuen Code zu erhalten.',
};
