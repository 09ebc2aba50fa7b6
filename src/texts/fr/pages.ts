// French texts of the hosted pages, typed against English (../en/pages.ts says what each is for).
import type { Texts } from '../en/index.js';

type Channel = 'email' | 'sms';
type Pending = { email: string | null; phone: string | null };

export const pages: Texts['pages'] = {
  login: {
    title: 'Connexion',
    heading: (client: string) => `Connexion à ${client}`,
    email: 'E-mail',
    password: 'Mot de passe',
    submit: 'Me connecter',
    passkey: "Me connecter avec une clé d'accès",
    provider: (label: string) => `Continuer avec ${label}`,
    cancel: 'Annuler',
    forgot: 'Mot de passe oublié ?',
    orPasswordless: 'Ou connectez-vous sans mot de passe :',
    magicLink: 'M’envoyer un lien de connexion',
    phone: 'Numéro de téléphone',
    sms: 'M’envoyer un code par SMS',
    noAccount: 'Pas encore de compte ?',
    signup: 'Créer un compte',
  },
  signup: {
    title: 'Créer un compte',
    heading: (client: string) => `Créez votre compte pour ${client}`,
    email: 'E-mail',
    password: 'Mot de passe',
    hint: (min: number) => `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant.`,
    givenName: 'Prénom',
    familyName: 'Nom',
    optional: '(facultatif)',
    yes: 'Oui',
    submit: 'Créer mon compte',
    haveAccount: 'Vous avez déjà un compte ?',
    signIn: 'Me connecter',
    sentTitle: 'Consultez vos e-mails',
    sent: (email: string) =>
      `Nous avons envoyé un lien à ${email}. Ouvrez-le pour confirmer votre adresse, puis connectez-vous. ` +
      'Il est valable un temps limité.',
  },
  strength: {
    label: 'Robustesse',
    words: ['Très faible', 'Faible', 'Moyen', 'Bon', 'Fort'],
  },
  signIn: {
    wrongPassword: "L'adresse e-mail ou le mot de passe est incorrect.",
    tooManyAttempts: 'Trop de tentatives de connexion. Patientez une minute puis réessayez.',
    passkeyFailed: "Cette clé d'accès n'a pas pu être utilisée. Réessayez, ou utilisez votre mot de passe.",
    wrongCode: 'Le code est incorrect ou a expiré. Réessayez ou demandez-en un nouveau.',
    tooManyCodes: 'Trop de codes ont été demandés. Patientez avant d’en demander un autre.',
    accountDelayed: 'Trop de tentatives échouées pour ce compte. Réessayez dans un instant.',
    accountLocked:
      'Trop de tentatives échouées pour ce compte. Réessayez plus tard, ou réinitialisez votre mot de passe.',
    codeSent: "Un nouveau code a été envoyé. L'ancien ne fonctionne plus.",
  },
  account: {
    title: 'Votre compte',
    signedOut: 'Vous n’êtes pas connecté',
    signedOutLead: 'Connectez-vous à une application qui utilise ce compte, puis rouvrez cette page.',
    email: 'E-mail',
    phone: 'Numéro de téléphone',
    none: 'Aucun',
    confirmed: 'confirmé',
    unconfirmed: 'non confirmé',
    changeEmail: 'Changer d’adresse e-mail',
    newEmail: 'Nouvelle adresse e-mail',
    sendLink: 'M’envoyer un lien de confirmation',
    changePhone: 'Changer de numéro de téléphone',
    newPhone: 'Nouveau numéro de téléphone',
    phoneHint: 'Au format international, par exemple +33612345678.',
    sendSms: 'M’envoyer un code par SMS',
    enterPhoneCode: (to: string) => `Saisissez le code envoyé par SMS au ${to}.`,
    smsCode: 'Code reçu par SMS',
    confirmPhone: 'Confirmer ce numéro',
    changePassword: 'Changer de mot de passe',
    currentPassword: 'Mot de passe actuel',
    newPassword: 'Nouveau mot de passe',
    passwordHint: (min: number) =>
      `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant. ` +
      'Vos autres sessions seront fermées.',
    confirmPassword: 'Confirmez le nouveau mot de passe',
    savePassword: 'Changer mon mot de passe',
    stepUpHeading: 'Confirmez qu’il s’agit bien de vous',
    appCode: "Code de votre application d'authentification",
    recoveryCode: 'Ou un code de secours',
    authenticatorApp: "Application d'authentification",
    appOn: 'activée',
    recoveryCodes: 'Codes de secours',
    recoveryLeft: (n: number) => `il en reste ${n}`,
    appHeading: "Application d'authentification",
    appLead:
      'Une application comme Google Authenticator, Aegis ou 1Password affiche un nouveau code toutes les 30 secondes.',
    appSetUp: "Configurer une application d'authentification",
    appScan: "Scannez ce code avec l'application, ou saisissez la clé à la main, puis entrez le code qu'elle affiche.",
    appKey: 'Clé',
    appEnable: 'Activer',
    appRemove: "Retirer l'application d'authentification",
    newRecoveryCodes: 'Créer de nouveaux codes de secours',
    recoveryShown:
      "Vos codes de secours. Gardez-les en lieu sûr : chacun sert une fois, quand vous ne pouvez pas utiliser l'application, et ils ne sont montrés que maintenant.",
    stepUpLead:
      'Pour changer d’adresse e-mail, de numéro de téléphone ou de mot de passe, ' +
      'confirmez d’abord qu’il s’agit bien de vous avec un code.',
    sendCode: (c: Channel, to: string) => `Recevoir un code par ${c === 'email' ? 'e-mail' : 'SMS'} (${to})`,
    codeSentTo: (c: Channel) =>
      `Nous avons envoyé un code ${c === 'email' ? 'à votre adresse e-mail' : 'à votre téléphone'}.`,
    verificationCode: 'Code de vérification',
    verify: 'Vérifier',
    resend: 'Envoyer un nouveau code',
    back: (app: string) => `Retour à ${app}`,
    notices: {
      email_sent: (p: Pending) =>
        `Nous avons envoyé un lien à ${p.email ?? 'votre nouvelle adresse'} ; ` +
        'votre adresse changera dès que vous l’ouvrirez.',
      phone_code_sent: (p: Pending) => `Nous avons envoyé un code par SMS au ${p.phone ?? 'nouveau numéro'}.`,
      phone_changed: () => 'Votre numéro de téléphone est confirmé.',
      password_changed: () => 'Votre mot de passe a été modifié. Vos autres sessions ont été fermées.',
      app_removed: () => "L'application d'authentification a été retirée, avec ses codes de secours.",
      confirmed: () =>
        'Merci. Vous pouvez maintenant changer d’adresse e-mail, de numéro de téléphone ou de mot de passe.',
    },
    leave: {
      dataHeading: 'Vos données',
      dataLead:
        'Un fichier JSON de tout ce qui est conservé sur vous : profil, moyens de connexion, sessions, consentements et historique.',
      dataLink: 'Télécharger mes données',
      deleteHeading: 'Supprimer mon compte',
      deleteLead: (graceDays: number) =>
        graceDays === 0
          ? 'Votre compte et tout ce qui lui est lié sont effacés immédiatement. C’est définitif.'
          : `Vous êtes déconnecté partout immédiatement, et votre compte et tout ce qui lui est lié sont effacés après ${graceDays} ${graceDays === 1 ? 'jour' : 'jours'}. Vous reconnecter d’ici là annule la suppression.`,
      password: 'Votre mot de passe',
      sendCode: 'Envoyez-moi un code de confirmation',
      codeSent: (c: Channel) =>
        `Nous avons envoyé un code ${c === 'email' ? 'à votre adresse e-mail' : 'à votre téléphone'}.`,
      code: 'Code',
      confirm: 'Je comprends : supprimer mon compte et toutes ses données',
      button: 'Supprimer mon compte',
      deletedTitle: 'Votre compte a été supprimé',
      deletedLead: 'Votre compte et les données qui lui étaient liées ont été effacés. Au revoir.',
      scheduledTitle: 'Votre compte va être supprimé',
      scheduledLead: (date: string) =>
        `Vous avez été déconnecté partout. Votre compte sera effacé le ${date} ; reconnectez-vous d’ici là pour annuler.`,
    },
    problems: {
      expired: 'Ce formulaire a expiré. Réessayez.',
      invalidEmail: 'Saisissez une adresse e-mail valide.',
      sameEmail: 'C’est déjà votre adresse e-mail.',
      invalidPhone: 'Saisissez un numéro au format international, par exemple +33612345678.',
      samePhone: 'C’est déjà votre numéro de téléphone.',
      missing: 'Remplissez tous les champs.',
      passwordsDiffer: 'Les deux nouveaux mots de passe diffèrent.',
      tooMany: 'Trop de tentatives. Patientez un instant puis réessayez.',
      stepUpRequired: 'Confirmez d’abord qu’il s’agit bien de vous avec un code.',
      too_short: (min: number) => `Le mot de passe doit compter au moins ${min} caractères (et au plus 256).`,
      too_common: 'Ce mot de passe est trop courant. Choisissez-en un autre.',
      contains_user_info: 'Le mot de passe ne doit contenir ni votre adresse e-mail ni votre nom.',
      too_weak: 'Ce mot de passe est trop facile à deviner. Quelques mots sans rapport en font un solide.',
      breached: 'Ce mot de passe figure dans une fuite de données. Choisissez-en un autre.',
      missing_characters:
        'Ce mot de passe ne contient pas un caractère exigé par la politique (majuscules, minuscules, chiffres ou caractères spéciaux).',
    },
  },
  authorizeError: {
    title: "Erreur d'autorisation",
    heading: 'Cette demande ne peut pas aboutir',
    error: 'Erreur :',
  },
  completeProfile: {
    title: 'Complétez votre profil',
    heading: (client: string) => `Complétez votre profil pour ${client}`,
    intro: (provider: string) =>
      `Vous vous êtes connecté avec ${provider}. Il manque quelques informations pour créer votre compte.`,
    gave: (provider: string) => `${provider} nous a transmis :`,
    name: 'Nom',
    email: 'E-mail',
    colon: ' : ',
    verified: 'confirmée par le fournisseur',
    unverified: 'non confirmée par le fournisseur',
    nothing: 'ni nom ni e-mail',
    choose: 'Choisir…',
    required: 'Ce champ est obligatoire.',
    invalid: (_detail: string) => 'Cette valeur n’est pas valide.',
    problems: 'Certains champs sont manquants ou invalides.',
    submit: 'Créer mon compte',
  },
  messengerConfirm: {
    title: 'Associer votre compte Messenger',
    heading: (client: string) => `Associer votre compte Messenger à ${client} ?`,
    body: (who: string, client: string) =>
      `Vous êtes connecté en tant que ${who}. ${client} connaîtra votre nom et votre adresse e-mail.`,
    allow: 'Associer mon compte',
    cancel: 'Annuler',
  },
  signInConfirm: {
    title: 'Confirmer la connexion',
    heading: (client: string) => `Se connecter à ${client} sur cet appareil ?`,
    startedAs: 'Une connexion en tant que',
    startedElsewhere:
      'a été commencée ailleurs que dans ce navigateur. Continuez seulement si c’est vous qui l’avez commencée.',
    allow: 'Me connecter',
    cancel: 'Annuler',
  },
  expired: {
    title: 'Connexion expirée',
    formHeading: 'Ce formulaire de connexion a expiré',
    socialHeading: 'Cette connexion a expiré ou n’a pas commencé ici',
    again: 'Revenez à l’application et recommencez.',
  },
  formPost: {
    title: 'Envoyer ce formulaire',
    noScript: 'Les scripts sont désactivés : continuez vers l’application.',
    submit: 'Continuer',
  },
  link: {
    title: 'Associer votre compte',
    heading: 'Vous avez déjà un compte',
    lead: (email: string, provider: string) =>
      `Un compte existe pour ${email}. Saisissez son mot de passe pour y associer votre connexion ${provider}.`,
    password: 'Mot de passe',
    submit: 'Associer et me connecter',
    incorrectPassword: 'Le mot de passe est incorrect.',
  },
  logout: {
    confirmTitle: 'Se déconnecter ?',
    asks: (client: string) => `${client} demande votre déconnexion.`,
    signedInAs: (who: string) => `Vous êtes connecté en tant que ${who}.`,
    signOut: 'Me déconnecter',
    staySignedIn: 'Rester connecté',
    signedOutTitle: 'Déconnecté',
    signedOut: 'Vous êtes déconnecté',
    notRegistered: (url: string) => `L’adresse de retour ${url} n’est pas enregistrée : vous restez ici.`,
    stillTitle: 'Toujours connecté',
    still: 'Vous êtes toujours connecté',
    errorTitle: 'Erreur de déconnexion',
    errorHeading: 'Cette demande de déconnexion ne peut pas aboutir',
    error: 'Erreur :',
  },
  passwordless: {
    confirmTitle: 'Confirmer la connexion',
    confirmHeading: 'Se connecter sur cet appareil ?',
    otherBrowser:
      'Ce lien ou ce code de connexion n’a pas été demandé depuis ce navigateur. Continuez seulement si c’est ' +
      'vous qui l’avez demandé.',
    signingIn: (client: string) => `Connexion à ${client}`,
    as: 'en tant que',
    submit: 'Me connecter',
    sentTitle: 'Consultez vos messages',
    sentHeading: (client: string) => `Connexion à ${client}`,
    sentLink: (to: string) =>
      `Si un compte utilise ${to}, nous lui avons envoyé un lien de connexion et un code. Ouvrez le lien dans\nce navigateur, ou saisissez le code ici.`,
    sentSms: (to: string) => `Si un compte utilise ${to}, nous lui avons envoyé un code par SMS. Saisissez-le ici.`,
    code: 'Code',
  },
  secondFactor: {
    title: 'Code de vérification',
    heading: "Confirmez qu'il s'agit bien de vous",
    lead: (where: Channel, client: string) =>
      `Nous avons envoyé un code ${where === 'email' ? 'à votre adresse e-mail' : 'à votre téléphone'} pour vous\nconnecter à ${client}.`,
    code: 'Code de vérification',
    verify: 'Vérifier',
    resend: 'Envoyer un nouveau code',
    other: (c: Channel) => `Recevoir plutôt le code par ${c === 'email' ? 'e-mail' : 'SMS'}`,
    leadApp: (client: string) =>
      `Saisissez le code affiché par votre application d'authentification pour vous connecter à ${client}.`,
    useApp: "Utiliser plutôt mon application d'authentification",
    recoveryLabel: 'Ou un code de secours',
    useRecovery: 'Utiliser ce code de secours',
  },
  selfService: {
    continue: 'Continuer',
    confirmEmail: 'Confirmez votre adresse e-mail',
    confirmLead: (email: string) => `Confirmez que ${email} est votre adresse e-mail.`,
    confirmSignup: 'Confirmez seulement si vous avez créé ce compte vous-même : qui l’a créé peut s’y connecter.',
    confirmButton: 'Confirmer mon adresse',
    emailConfirmed: 'Adresse e-mail confirmée',
    isConfirmed: (email: string) => `${email} est confirmée.`,
    linkExpiredTitle: 'Lien expiré',
    linkExpired: 'Ce lien a expiré ou a déjà servi',
    askAgain: "Demandez-en un nouveau depuis l'application.",
    choosePassword: 'Choisissez un nouveau mot de passe',
    newPassword: 'Nouveau mot de passe',
    hint: (min: number) => `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant.`,
    confirmPassword: 'Confirmez le nouveau mot de passe',
    changePassword: 'Changer mon mot de passe',
    changedTitle: 'Mot de passe modifié',
    changed: 'Votre mot de passe a été modifié',
    signInAgain: 'Connectez-vous avec votre nouveau mot de passe. Vos autres sessions ont été fermées.',
    forgot: 'Mot de passe oublié ?',
    forgotLead:
      'Saisissez l’adresse e-mail de votre compte : nous vous enverrons un lien et un code pour choisir un ' +
      'nouveau mot de passe.',
    email: 'E-mail',
    sendLink: 'M’envoyer un lien',
    checkEmail: 'Consultez vos e-mails',
    passwordsDiffer: 'Les deux mots de passe diffèrent.',
    sent:
      'Si un compte utilise cette adresse, un lien pour choisir un nouveau mot de passe est en route. Il est ' +
      'valable un temps limité.',
  },
  popup: {
    title: 'Connexion',
    done: 'Connexion en cours. Cette fenêtre se ferme d’elle-même.',
    failed: 'La connexion n’a pas abouti. Cette fenêtre se ferme d’elle-même.',
  },
};
