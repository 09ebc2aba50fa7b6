import type { Texts } from '../en/index.js';

// Spanish emails and SMS ("usted"). The SMS keep to the GSM-7 alphabet so one segment holds 160
// characters: it has é, ñ, ¿ and ¡ but not á, í, ó or ú, which the SMS leave out as Spanish SMS
// commonly do; the emails are written in full.
export const messages: Texts['messages'] = {
  dateLocale: 'es-ES',
  units: { h: ['hora', 'horas'], min: ['minuto', 'minutos'], s: ['segundo', 'segundos'] },

  code: {
    subject: (code, app) => `${code} es su código de verificación de ${app}`,
    heading: (app) => `Su código de verificación de ${app} es:`,
    lead: {
      stepup: 'Introdúzcalo para confirmar que es usted.',
      register: 'Introdúzcalo para confirmar esta dirección de correo electrónico.',
    },
    expires: (d) => `Caduca en ${d}.`,
    ignore: {
      stepup: 'Si no acaba de intentar iniciar sesión, puede que otra persona conozca su contraseña: cámbiela.',
      register: 'Si no ha solicitado este código, puede ignorar este mensaje.',
    },
    neverShare: (app) => `No comparta nunca este código: ${app} nunca se lo pedirá.`,
    sms: {
      stepup: (code, app, d) => `${code} es su codigo de verificacion de ${app}. Caduca en ${d}. No lo comparta.`,
      register: (code, app, d) => `${code} es su codigo para confirmar este numero en ${app}. Caduca en ${d}.`,
    },
    smsShort: (code, d) => `${code} es su codigo de verificacion. Caduca en ${d}.`,
  },

  account: {
    verify_email: {
      subject: (v) => `Confirme su dirección de correo electrónico para ${v.app}`,
      lead: (v) =>
        `Confirme que ${v.address} es su dirección de correo electrónico para ${v.app}. El enlace es válido durante ` +
        `${v.linkExpires}.`,
      button: 'Confirmar mi dirección de correo',
      codeLead: 'O introduzca este código, válido durante',
      after: () => 'Si no lo ha solicitado, puede ignorar este mensaje.',
      sms: (v) => `${v.code} es su codigo para confirmar este correo en ${v.app}.`,
    },
    change_email: {
      subject: (v) => `Confirme su nueva dirección de correo electrónico para ${v.app}`,
      lead: (v) =>
        `Ha solicitado usar ${v.address} para su cuenta de ${v.app}. Sustituirá a la anterior en cuanto la confirme; ` +
        `el enlace es válido durante ${v.linkExpires}.`,
      button: 'Confirmar mi nueva dirección',
      codeLead: 'O introduzca este código, válido durante',
      after: () => 'Si no lo ha solicitado, ignore este mensaje: no cambia nada.',
      sms: (v) => `${v.code} es su codigo para confirmar este correo en ${v.app}.`,
    },
    reset_password: {
      subject: (v) => `Restablezca su contraseña de ${v.app}`,
      lead: (v) =>
        `Alguien ha solicitado restablecer la contraseña de su cuenta de ${v.app}. El enlace es válido durante ` +
        `${v.linkExpires}.`,
      button: 'Elegir una nueva contraseña',
      codeLead: 'O introduzca este código, válido durante',
      after: () =>
        'Si no ha sido usted, ignore este mensaje: su contraseña no cambia. No comparta nunca este código ni este ' +
        'enlace.',
      sms: (v) =>
        `${v.code} es su codigo para restablecer la contraseña de ${v.app}. Caduca en ${v.expires}. No lo comparta.`,
    },
    verify_phone: {
      subject: (v) => `Confirme su número de teléfono para ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) => `${v.code} es su codigo para confirmar este numero de teléfono en ${v.app}. Caduca en ${v.expires}.`,
    },
    change_phone: {
      subject: (v) => `Confirme su nuevo número de teléfono para ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) => `${v.code} es su codigo para confirmar su nuevo numero en ${v.app}. Caduca en ${v.expires}.`,
    },
    email_changed: {
      subject: (v) => `Se ha cambiado la dirección de correo electrónico de su cuenta de ${v.app}`,
      lead: (v) =>
        `El ${v.when}, la dirección de correo electrónico de su cuenta de ${v.app} se cambió a ${v.address}.`,
      after: () =>
        'Si ha hecho usted este cambio, no tiene que hacer nada más. Si no, restablezca su contraseña ahora y ' +
        'póngase en contacto con el servicio de asistencia.',
      sms: (v) => `${v.app}: se ha cambiado el correo de su cuenta. ¿No ha sido usted? Restablezca su contraseña ya.`,
    },
    phone_changed: {
      subject: (v) => `Se ha cambiado el número de teléfono de su cuenta de ${v.app}`,
      lead: (v) => `El ${v.when}, el número de teléfono de su cuenta de ${v.app} se cambió a ${v.address}.`,
      after: () =>
        'Si ha hecho usted este cambio, no tiene que hacer nada más. Si no, restablezca su contraseña ahora y ' +
        'póngase en contacto con el servicio de asistencia.',
      sms: (v) => `${v.app}: se ha cambiado el numero de su cuenta. ¿No ha sido usted? Restablezca su contraseña ya.`,
    },
    password_changed: {
      subject: (v) => `Se ha cambiado su contraseña de ${v.app}`,
      lead: (v) => `El ${v.when}, se cambió la contraseña de su cuenta de ${v.app} y se cerraron sus demás sesiones.`,
      after: () =>
        'Si ha hecho usted este cambio, no tiene que hacer nada más. Si no, restablezca su contraseña ahora.',
      sms: (v) => `${v.app}: se ha cambiado su contraseña. ¿No ha sido usted? Restablézcala ya.`,
    },
    passwordless: {
      subject: (v) => `Iniciar sesión en ${v.app}`,
      lead: (v) =>
        `Abra este enlace para iniciar sesión en ${v.app} como ${v.address}. Sirve una sola vez, durante ` +
        `${v.linkExpires}.`,
      button: 'Iniciar sesión',
      codeLead: 'O introduzca este código, válido durante',
      after: () =>
        'Si no ha intentado iniciar sesión, ignore este mensaje. No comparta nunca este enlace ni este código.',
      sms: (v) => `${v.code} es su codigo de inicio de sesion en ${v.app}. Caduca en ${v.expires}. No lo comparta.`,
    },
    account_recovery: {
      subject: (v) => `Recupere su cuenta de ${v.app}`,
      lead: (v) =>
        `Alguien ha solicitado recuperar su cuenta de ${v.app}: con este enlace o este código puede registrar una ` +
        `nueva llave de acceso. El enlace es válido durante ${v.linkExpires}.`,
      button: 'Registrar una nueva llave de acceso',
      codeLead: 'O introduzca este código, válido durante',
      after: () =>
        'Si no ha sido usted, ignore este mensaje: no cambia nada. No comparta nunca este enlace ni este código.',
      sms: (v) =>
        `${v.code} es su codigo de recuperacion de la cuenta de ${v.app}. Caduca en ${v.expires}. No lo comparta.`,
    },
    invitation: {
      subject: (v) => `Le han invitado a ${v.app}`,
      lead: (v) =>
        `Se ha creado una cuenta para usted en ${v.app} con la dirección ${v.address}. Elija su contraseña para ` +
        `empezar; el enlace es válido durante ${v.linkExpires}.`,
      button: 'Elegir mi contraseña',
      after: () => 'Si no lo esperaba, ignore este mensaje.',
      sms: (v) =>
        `${v.app}: se ha creado una cuenta para usted. Abra el enlace de su correo para elegir una contraseña.`,
    },
    passkeys_reset: {
      subject: (v) => `Se ha registrado una nueva llave de acceso para su cuenta de ${v.app}`,
      lead: (v) =>
        `El ${v.when}, se recuperó su cuenta de ${v.app}: se registró una nueva llave de acceso y se cerraron sus ` +
        `demás sesiones.`,
      after: () =>
        'Si ha sido usted, no tiene que hacer nada más. Si no, recupere su cuenta de nuevo ahora y póngase en ' +
        'contacto con el servicio de asistencia.',
      sms: (v) =>
        `${v.app}: se ha recuperado su cuenta con una nueva llave de acceso. ¿No ha sido usted? Recupérela ya.`,
    },
    delete_account: {
      subject: (v) => `Su código para eliminar su cuenta de ${v.app}`,
      lead: (v) =>
        `Alguien pidió eliminar su cuenta de ${v.app}. Introduzca el código de abajo en la página de la cuenta para confirmarlo.`,
      codeLead: 'Su código, válido durante',
      after: () => 'Si no fue usted, ignore este mensaje: no se elimina nada. No comparta nunca este código.',
      sms: (v) => `${v.code} es su código para eliminar su cuenta de ${v.app}. Caduca en ${v.expires}.`,
    },
    account_deletion_scheduled: {
      subject: (v) => `Su cuenta de ${v.app} será eliminada`,
      lead: (v) =>
        `Pidió eliminar su cuenta de ${v.app}: se cerraron todas sus sesiones, y la cuenta y sus datos se borrarán ` +
        `el ${v.when}.`,
      after: () => '¿Ha cambiado de opinión? Inicie sesión antes de esa fecha: eso cancela la eliminación.',
      sms: (v) => `${v.app}: su cuenta se eliminará el ${v.when}. Inicie sesión antes para cancelarlo.`,
    },
    account_deleted: {
      subject: (v) => `Su cuenta de ${v.app} fue eliminada`,
      lead: (v) => `El ${v.when}, su cuenta de ${v.app} y sus datos se borraron, como pidió.`,
      after: () => 'No se puede deshacer. Si no fue usted, contacte con el soporte.',
      sms: (v) => `${v.app}: su cuenta fue eliminada, como pidió.`,
    },
    confirm_consent: {
      subject: (v) => `Confirme su elección en ${v.app}`,
      lead: (v) =>
        `Aceptó «${v.address}» en ${v.app}. Confírmelo con este enlace, válido una vez, durante ${v.linkExpires}.`,
      button: 'Confirmar',
      after: () => 'Si no lo pidió, ignore este mensaje: no cambia nada.',
      sms: (v) => `${v.app}: abra el enlace de su correo para confirmar su elección.`,
    },
    claim_profile: {
      subject: (v) => `Termine de crear su cuenta de ${v.app}`,
      lead: (v) =>
        `Alguien se registró en ${v.app} con ${v.address}, una dirección que ${v.app} ya conoce. Para terminar, abra ` +
        `el enlace e introduzca la contraseña elegida al registrarse; es válido durante ${v.linkExpires}.`,
      button: 'Terminar de crear mi cuenta',
      after: () => 'Si no se registró, ignore este mensaje: no cambia nada y nadie obtiene acceso.',
      sms: (v) => `${v.app}: abra el enlace de su correo para terminar de crear su cuenta.`,
    },
  },
  codeLineEnd: ':',

  factorNotice: {
    subject: {
      factor_added: (app) => `Se ha añadido un segundo factor a su cuenta de ${app}`,
      factor_removed: (app) => `Se ha quitado un segundo factor de su cuenta de ${app}`,
    },
    // Short words in the GSM-7 alphabet: they go into the SMS too.
    factor: {
      email: (m) => `el correo ${m}`,
      sms: (m) => `el teléfono ${m}`,
      totp: () => 'una aplicación de autenticación',
    },
    what: {
      factor_added: (f, app, when) =>
        `El ${when}, se añadió ${f} a la verificación en dos pasos de su cuenta de ${app}.`,
      factor_removed: (f, app, when) =>
        `El ${when}, se quitó ${f} de la verificación en dos pasos de su cuenta de ${app}.`,
    },
    ifYou:
      'Si ha hecho usted este cambio, no tiene que hacer nada más. Los dispositivos que había marcado como de ' +
      'confianza volverán a pedirle un código.',
    ifNot:
      'Si no, puede que otra persona haya iniciado sesión en su cuenta: cambie su contraseña ahora, cierre sus ' +
      'demás sesiones y revise sus segundos factores.',
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app}: ` : ''}se añadio ${f} a su verificacion en dos pasos. ¿No ha sido usted? Cambie su contraseña.`,
      factor_removed: (f, app) =>
        `${app ? `${app}: ` : ''}se quito ${f} de su verificacion en dos pasos. ¿No ha sido usted? Cambie su contraseña.`,
    },
    reset: {
      subject: (app) => `Se restableció la verificación en dos pasos de su cuenta de ${app}`,
      what: (app, when) =>
        `El ${when}, un administrador eliminó todos los segundos factores y llaves de acceso de su cuenta de ${app}, ` +
        'a petición suya o tras comprobar su identidad.',
      ifYou:
        'Inicie sesión con su contraseña y vuelva a configurar la verificación en dos pasos en la página de su cuenta.',
      sms: (app) =>
        `${app ? `${app}: ` : ''}Un administrador restableció su verificación en dos pasos. ¿No fue usted? Contacte con soporte.`,
    },
    recoveryCode: {
      subject: (app) => `Se usó un código de recuperación en su cuenta de ${app}`,
      what: (app, when, left) =>
        `El ${when}, se usó un código de recuperación para iniciar sesión en su cuenta de ${app}. Le quedan ${left} ` +
        'códigos de recuperación.',
      ifYou:
        'Si fue usted, no hay nada más que hacer; cree una nueva serie de códigos en la página de su cuenta cuando le ' +
        'queden pocos.',
      sms: (app, left) =>
        `${app ? `${app}: ` : ''}Se usó un código de recuperación (quedan ${left}). ¿No fue usted? Cambie su contraseña.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `Se ha añadido una llave de acceso a su cuenta de ${app}`,
        factor_removed: (app) => `Se ha quitado una llave de acceso de su cuenta de ${app}`,
      },
      what: {
        factor_added: (app, when) =>
          `El ${when}, se añadió una llave de acceso a su cuenta de ${app}: permite iniciar sesión en ella.`,
        factor_removed: (app, when) => `El ${when}, se quitó una llave de acceso de su cuenta de ${app}.`,
      },
      sms: {
        factor_added: (app) =>
          `${app ? `${app}: ` : ''}se añadio una llave de acceso a su cuenta. ¿No ha sido usted? Cambie su contraseña.`,
        factor_removed: (app) =>
          `${app ? `${app}: ` : ''}se quito una llave de acceso de su cuenta. ¿No ha sido usted? Cambie su contraseña.`,
      },
    },
  },

  lockNotice: {
    subject: (app) => `El inicio de sesión en su cuenta de ${app} está suspendido`,
    what: (app, when, until) =>
      `El ${when}, tras demasiadas contraseñas incorrectas, se suspendió el inicio de sesión con contraseña en su ` +
      `cuenta de ${app} hasta el ${until}.`,
    ifYou:
      'Si ha sido usted, espere hasta entonces o restablezca su contraseña. Las demás formas de iniciar sesión ' +
      'siguen funcionando.',
    ifNot:
      'Si no ha sido usted, puede que alguien intente adivinar su contraseña: elija una nueva y única, y active la ' +
      'verificación en dos pasos.',
    sms: (app, until) =>
      `${app ? `${app}: ` : ''}demasiadas contraseñas incorrectas, acceso suspendido hasta el ${until}. ¿No ha sido ` +
      `usted? Cambie su contraseña.`,
  },
};
