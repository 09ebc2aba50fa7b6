// The device verification pages (RFC 8628, interaction/pages/device.ts). Español.
import type { Texts } from '../en/index.js';

export const device: Texts['device'] = {
  title: 'Conectar un dispositivo',
  heading: 'Conectar un dispositivo',
  lead: 'Introduzca el código que muestra su dispositivo.',
  codeLabel: 'Código',
  submit: 'Continuar',
  unknownCode: 'Este código no es válido o ha caducado. Compruebe el código en su dispositivo e inténtelo de nuevo.',
  tooMany: 'Demasiados intentos. Espere un momento e inténtelo de nuevo.',
  approveHeading: (client: string) => `¿Conectar ${client} en su dispositivo?`,
  approveLead: (client: string) =>
    `Permítalo solo si usted mismo lo inició en su dispositivo. Si lo permite, ${client} podrá:`,
  approvedHeading: 'Dispositivo conectado',
  approvedText: 'Puede volver a su dispositivo.',
  deniedHeading: 'Acceso denegado',
  deniedText: 'El dispositivo no ha recibido acceso. Puede cerrar esta página.',
  expiredHeading: 'Esta solicitud ha caducado',
  expiredText: 'Vuelva a empezar en su dispositivo para obtener un nuevo código.',
};
