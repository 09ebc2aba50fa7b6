// Spanish texts of the hosted pages (formal "usted"), typed against English (../en/pages.ts says
// what each is for).
import type { Texts } from '../en/index.js';

type Channel = 'email' | 'sms';
type Pending = { email: string | null; phone: string | null };

export const pages: Texts['pages'] = {
  login: {
    title: 'Iniciar sesión',
    heading: (client: string) => `Iniciar sesión en ${client}`,
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Iniciar sesión',
    passkey: 'Iniciar sesión con una llave de acceso',
    provider: (label: string) => `Continuar con ${label}`,
    cancel: 'Cancelar',
    forgot: '¿Ha olvidado su contraseña?',
    orPasswordless: 'O inicie sesión sin contraseña:',
    magicLink: 'Enviarme un enlace de inicio de sesión',
    phone: 'Número de teléfono',
    sms: 'Enviarme un código por SMS',
    noAccount: '¿Aún no tiene cuenta?',
    signup: 'Crear una cuenta',
  },
  signup: {
    title: 'Crear una cuenta',
    heading: (client: string) => `Cree su cuenta para ${client}`,
    email: 'Correo electrónico',
    password: 'Contraseña',
    hint: (min: number) =>
      `Al menos ${min} caracteres; ni su correo electrónico ni su nombre, ni una contraseña habitual.`,
    givenName: 'Nombre',
    familyName: 'Apellidos',
    optional: '(opcional)',
    yes: 'Sí',
    submit: 'Crear mi cuenta',
    haveAccount: '¿Ya tiene una cuenta?',
    signIn: 'Iniciar sesión',
    sentTitle: 'Revise su correo electrónico',
    sent: (email: string) =>
      `Hemos enviado un enlace a ${email}. Ábralo para confirmar su dirección y, después, inicie sesión. ` +
      'Es válido durante un tiempo limitado.',
  },
  strength: {
    label: 'Solidez',
    words: ['Muy débil', 'Débil', 'Aceptable', 'Buena', 'Fuerte'],
  },
  signIn: {
    wrongPassword: 'El correo electrónico o la contraseña no son correctos.',
    tooManyAttempts: 'Demasiados intentos de inicio de sesión. Espere un minuto y vuelva a intentarlo.',
    passkeyFailed: 'No se ha podido usar esa llave de acceso. Vuelva a intentarlo o use su contraseña.',
    wrongCode: 'El código no es correcto o ha caducado. Vuelva a intentarlo o solicite uno nuevo.',
    tooManyCodes: 'Se han solicitado demasiados códigos. Espere antes de solicitar otro.',
    accountDelayed: 'Demasiados intentos fallidos para esta cuenta. Vuelva a intentarlo en un momento.',
    accountLocked:
      'Demasiados intentos fallidos para esta cuenta. Vuelva a intentarlo más tarde o restablezca su contraseña.',
    codeSent: 'Se ha enviado un código nuevo. El anterior ya no es válido.',
  },
  account: {
    title: 'Su cuenta',
    signedOut: 'No ha iniciado sesión',
    signedOutLead: 'Inicie sesión en una aplicación que use esta cuenta y vuelva a abrir esta página.',
    email: 'Correo electrónico',
    phone: 'Número de teléfono',
    none: 'Ninguno',
    confirmed: 'confirmado',
    unconfirmed: 'sin confirmar',
    changeEmail: 'Cambiar su dirección de correo electrónico',
    newEmail: 'Nueva dirección de correo electrónico',
    sendLink: 'Enviarme un enlace de confirmación',
    changePhone: 'Cambiar su número de teléfono',
    newPhone: 'Nuevo número de teléfono',
    phoneHint: 'En formato internacional, por ejemplo +33612345678.',
    sendSms: 'Enviarme un código por SMS',
    enterPhoneCode: (to: string) => `Introduzca el código que hemos enviado por SMS al ${to}.`,
    smsCode: 'Código recibido por SMS',
    confirmPhone: 'Confirmar este número',
    changePassword: 'Cambiar su contraseña',
    currentPassword: 'Contraseña actual',
    newPassword: 'Nueva contraseña',
    passwordHint: (min: number) =>
      `Al menos ${min} caracteres; ni su correo electrónico ni su nombre, ni una contraseña habitual. ` +
      'Se cerrarán sus demás sesiones.',
    confirmPassword: 'Confirme la nueva contraseña',
    savePassword: 'Cambiar mi contraseña',
    stepUpHeading: 'Confirme que es usted',
    appCode: 'Código de su aplicación de autenticación',
    recoveryCode: 'O un código de recuperación',
    authenticatorApp: 'Aplicación de autenticación',
    appOn: 'activada',
    recoveryCodes: 'Códigos de recuperación',
    recoveryLeft: (n: number) => `quedan ${n}`,
    appHeading: 'Aplicación de autenticación',
    appLead: 'Una aplicación como Google Authenticator, Aegis o 1Password muestra un código nuevo cada 30 segundos.',
    appSetUp: 'Configurar una aplicación de autenticación',
    appScan:
      'Escanee este código con la aplicación, o escriba la clave a mano, y luego introduzca el código que muestra.',
    appKey: 'Clave',
    appEnable: 'Activar',
    appRemove: 'Quitar la aplicación de autenticación',
    newRecoveryCodes: 'Crear nuevos códigos de recuperación',
    recoveryShown:
      'Sus códigos de recuperación. Guárdelos en un lugar seguro: cada uno sirve una vez, cuando no pueda usar la aplicación, y solo se muestran ahora.',
    stepUpLead:
      'Para cambiar su dirección de correo electrónico, su número de teléfono o su contraseña, confirme primero ' +
      'que es usted con un código.',
    sendCode: (c: Channel, to: string) =>
      `Enviar un código por ${c === 'email' ? 'correo electrónico' : 'SMS'} a ${to}`,
    codeSentTo: (c: Channel) =>
      `Hemos enviado un código ${c === 'email' ? 'a su dirección de correo electrónico' : 'a su teléfono'}.`,
    verificationCode: 'Código de verificación',
    verify: 'Verificar',
    resend: 'Enviar un código nuevo',
    back: (app: string) => `Volver a ${app}`,
    notices: {
      email_sent: (p: Pending) =>
        `Hemos enviado un enlace a ${p.email ?? 'su nueva dirección'}; su dirección cambiará en cuanto lo abra.`,
      phone_code_sent: (p: Pending) => `Hemos enviado un código por SMS al ${p.phone ?? 'nuevo número'}.`,
      phone_changed: () => 'Su número de teléfono está confirmado.',
      password_changed: () => 'Su contraseña se ha cambiado. Se han cerrado sus demás sesiones.',
      app_removed: () => 'Se quitó la aplicación de autenticación, con sus códigos de recuperación.',
      confirmed: () =>
        'Gracias. Ya puede cambiar su dirección de correo electrónico, su número de teléfono o su contraseña.',
    },
    leave: {
      dataHeading: 'Sus datos',
      dataLead:
        'Un archivo JSON con todo lo que se guarda sobre usted: perfil, métodos de acceso, sesiones, consentimientos e historial.',
      dataLink: 'Descargar mis datos',
      deleteHeading: 'Eliminar mi cuenta',
      deleteLead: (graceDays: number) =>
        graceDays === 0
          ? 'Su cuenta y todo lo que se guarda con ella se borran de inmediato. No se puede deshacer.'
          : `Se cierran todas sus sesiones de inmediato, y su cuenta y todo lo que se guarda con ella se borran tras ${graceDays} ${graceDays === 1 ? 'día' : 'días'}. Iniciar sesión antes lo cancela.`,
      password: 'Su contraseña',
      sendCode: 'Envíenme un código de confirmación',
      codeSent: (c: Channel) => `Enviamos un código ${c === 'email' ? 'a su correo electrónico' : 'a su teléfono'}.`,
      code: 'Código',
      confirm: 'Entiendo: eliminar mi cuenta y todos sus datos',
      button: 'Eliminar mi cuenta',
      deletedTitle: 'Su cuenta fue eliminada',
      deletedLead: 'Su cuenta y sus datos se borraron. Adiós.',
      scheduledTitle: 'Su cuenta será eliminada',
      scheduledLead: (date: string) =>
        `Se cerraron todas sus sesiones. Su cuenta se borrará el ${date}; inicie sesión antes para cancelarlo.`,
    },
    problems: {
      expired: 'Este formulario ha caducado. Vuelva a intentarlo.',
      invalidEmail: 'Introduzca una dirección de correo electrónico válida.',
      sameEmail: 'Esta ya es su dirección de correo electrónico.',
      invalidPhone: 'Introduzca un número de teléfono en formato internacional, por ejemplo +33612345678.',
      samePhone: 'Este ya es su número de teléfono.',
      missing: 'Rellene todos los campos.',
      passwordsDiffer: 'Las dos contraseñas nuevas no coinciden.',
      tooMany: 'Demasiados intentos. Espere un momento y vuelva a intentarlo.',
      stepUpRequired: 'Confirme primero que es usted con un código.',
      too_short: (min: number) => `La contraseña debe tener al menos ${min} caracteres (y como máximo 256).`,
      too_common: 'Esta contraseña es demasiado habitual. Elija otra.',
      contains_user_info: 'La contraseña no debe contener su dirección de correo electrónico ni su nombre.',
      too_weak: 'Esta contraseña es demasiado fácil de adivinar. Unas cuantas palabras sin relación forman una sólida.',
      breached: 'Esta contraseña ha aparecido en una filtración de datos. Elija otra.',
      missing_characters:
        'A esta contraseña le falta un carácter que exige la política (mayúsculas, minúsculas, dígitos o caracteres especiales).',
    },
  },
  authorizeError: {
    title: 'Error de autorización',
    heading: 'Esta solicitud no se puede completar',
    error: 'Error:',
  },
  completeProfile: {
    title: 'Complete su perfil',
    heading: (client: string) => `Complete su perfil para ${client}`,
    intro: (provider: string) => `Ha iniciado sesión con ${provider}. Faltan algunos datos para poder crear su cuenta.`,
    gave: (provider: string) => `${provider} nos ha facilitado:`,
    name: 'Nombre',
    email: 'Correo electrónico',
    colon: ': ',
    verified: 'confirmado por el proveedor',
    unverified: 'no confirmado por el proveedor',
    nothing: 'ni nombre ni correo electrónico',
    choose: 'Elegir…',
    required: 'Este campo es obligatorio.',
    invalid: (_detail: string) => 'Este valor no es válido.',
    problems: 'Faltan algunos campos o no son válidos.',
    submit: 'Crear mi cuenta',
  },
  messengerConfirm: {
    title: 'Vincular su cuenta de Messenger',
    heading: (client: string) => `¿Vincular su cuenta de Messenger con ${client}?`,
    body: (who: string, client: string) =>
      `Ha iniciado sesión como ${who}. ${client} conocerá su nombre y su dirección de correo electrónico.`,
    allow: 'Vincular mi cuenta',
    cancel: 'Cancelar',
  },
  signInConfirm: {
    title: 'Confirmar el inicio de sesión',
    heading: (client: string) => `¿Iniciar sesión en ${client} en este dispositivo?`,
    startedAs: 'Un inicio de sesión como',
    startedElsewhere: 'se ha iniciado fuera de este navegador. Continúe solo si lo ha iniciado usted.',
    allow: 'Iniciar sesión',
    cancel: 'Cancelar',
  },
  expired: {
    title: 'Inicio de sesión caducado',
    formHeading: 'Este formulario de inicio de sesión ha caducado',
    socialHeading: 'Este inicio de sesión ha caducado o no empezó aquí',
    again: 'Vuelva a la aplicación y empiece de nuevo.',
  },
  formPost: {
    title: 'Enviar este formulario',
    noScript: 'Los scripts están desactivados: continúe hacia la aplicación.',
    submit: 'Continuar',
  },
  link: {
    title: 'Vincular su cuenta',
    heading: 'Ya tiene una cuenta',
    lead: (email: string, provider: string) =>
      `Existe una cuenta para ${email}. Introduzca su contraseña para vincular a ella su inicio de sesión con ` +
      `${provider}.`,
    password: 'Contraseña',
    submit: 'Vincular e iniciar sesión',
    incorrectPassword: 'La contraseña no es correcta.',
  },
  logout: {
    confirmTitle: '¿Cerrar sesión?',
    asks: (client: string) => `${client} solicita cerrar su sesión.`,
    signedInAs: (who: string) => `Ha iniciado sesión como ${who}.`,
    signOut: 'Cerrar sesión',
    staySignedIn: 'Mantener la sesión',
    signedOutTitle: 'Sesión cerrada',
    signedOut: 'Ha cerrado la sesión',
    notRegistered: (url: string) => `La dirección de retorno ${url} no está registrada, así que permanece aquí.`,
    stillTitle: 'Sesión abierta',
    still: 'Su sesión sigue abierta',
    errorTitle: 'Error al cerrar sesión',
    errorHeading: 'Esta solicitud de cierre de sesión no se puede completar',
    error: 'Error:',
  },
  passwordless: {
    confirmTitle: 'Confirmar el inicio de sesión',
    confirmHeading: '¿Iniciar sesión en este dispositivo?',
    otherBrowser:
      'Este enlace o código de inicio de sesión no se solicitó desde este navegador. Continúe solo si lo ha ' +
      'solicitado usted.',
    signingIn: (client: string) => `Inicio de sesión en ${client}`,
    as: 'como',
    submit: 'Iniciar sesión',
    sentTitle: 'Revise sus mensajes',
    sentHeading: (client: string) => `Iniciar sesión en ${client}`,
    sentLink: (to: string) =>
      `Si una cuenta usa ${to}, le hemos enviado un enlace de inicio de sesión y un código. Abra el enlace en ` +
      'este navegador o introduzca el código aquí.',
    sentSms: (to: string) => `Si una cuenta usa ${to}, le hemos enviado un código por SMS. Introdúzcalo aquí.`,
    code: 'Código',
  },
  secondFactor: {
    title: 'Código de verificación',
    heading: 'Confirme que es usted',
    lead: (where: Channel, client: string) =>
      `Hemos enviado un código ${where === 'email' ? 'a su dirección de correo electrónico' : 'a su teléfono'} ` +
      `para iniciar sesión en ${client}.`,
    code: 'Código de verificación',
    verify: 'Verificar',
    resend: 'Enviar un código nuevo',
    other: (c: Channel) => `Enviar el código por ${c === 'email' ? 'correo electrónico' : 'SMS'} en su lugar`,
    leadApp: (client: string) =>
      `Introduzca el código que muestra su aplicación de autenticación para iniciar sesión en ${client}.`,
    useApp: 'Usar mi aplicación de autenticación en su lugar',
    recoveryLabel: 'O un código de recuperación',
    useRecovery: 'Usar este código de recuperación',
  },
  selfService: {
    continue: 'Continuar',
    confirmEmail: 'Confirme su dirección de correo electrónico',
    confirmLead: (email: string) => `Confirme que ${email} es su dirección de correo electrónico.`,
    confirmSignup: 'Confirme solo si ha creado usted esta cuenta: quien la haya creado puede iniciar sesión con ella.',
    confirmButton: 'Confirmar mi dirección',
    emailConfirmed: 'Dirección de correo electrónico confirmada',
    isConfirmed: (email: string) => `${email} está confirmada.`,
    linkExpiredTitle: 'Enlace caducado',
    linkExpired: 'Este enlace ha caducado o ya se ha utilizado',
    askAgain: 'Solicite uno nuevo desde la aplicación.',
    choosePassword: 'Elija una contraseña nueva',
    newPassword: 'Nueva contraseña',
    hint: (min: number) =>
      `Al menos ${min} caracteres; ni su correo electrónico ni su nombre, ni una contraseña habitual.`,
    confirmPassword: 'Confirme la nueva contraseña',
    changePassword: 'Cambiar mi contraseña',
    changedTitle: 'Contraseña cambiada',
    changed: 'Su contraseña se ha cambiado',
    signInAgain: 'Inicie sesión con su nueva contraseña. Se han cerrado sus demás sesiones.',
    forgot: '¿Ha olvidado su contraseña?',
    forgotLead:
      'Introduzca la dirección de correo electrónico de su cuenta: le enviaremos un enlace y un código para ' +
      'elegir una contraseña nueva.',
    email: 'Correo electrónico',
    sendLink: 'Enviarme un enlace',
    checkEmail: 'Revise su correo electrónico',
    passwordsDiffer: 'Las dos contraseñas no coinciden.',
    sent:
      'Si una cuenta usa esta dirección, recibirá un enlace para elegir una contraseña nueva. Es válido durante ' +
      'un tiempo limitado.',
  },
  popup: {
    title: 'Iniciando sesión',
    done: 'Iniciando su sesión. Esta ventana se cerrará sola.',
    failed: 'No se ha completado el inicio de sesión. Esta ventana se cerrará sola.',
  },
};
