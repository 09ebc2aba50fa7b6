// The device verification pages (RFC 8628, interaction/pages/device.ts). English: the reference language.
export const device = {
  title: 'Connect a device',
  heading: 'Connect a device',
  lead: 'Enter the code your device shows.',
  codeLabel: 'Code',
  submit: 'Continue',
  unknownCode: 'This code is not valid or has expired. Check the code on your device and try again.',
  tooMany: 'Too many attempts. Wait a moment and try again.',
  approveHeading: (client: string) => `Connect ${client} on your device?`,
  approveLead: (client: string) =>
    `Only allow this if you started it on your device yourself. If you allow it, ${client} may:`,
  approvedHeading: 'Device connected',
  approvedText: 'You can go back to your device.',
  deniedHeading: 'Access denied',
  deniedText: 'The device was not given access. You can close this page.',
  expiredHeading: 'This request has expired',
  expiredText: 'Start again on your device to get a new code.',
};
