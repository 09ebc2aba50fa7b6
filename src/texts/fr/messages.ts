import type { Texts } from '../en/index.js';

/** French emails and SMS. */
export const messages: Texts['messages'] = {
  dateLocale: 'fr-FR',
  units: { h: ['heure', 'heures'], min: ['minute', 'minutes'], s: ['seconde', 'secondes'] },

  code: {
    subject: (code, app) => `${code} est votre code de vérification ${app}`,
    heading: (app) => `Votre code de vérification ${app} est :`,
    lead: {
      stepup: 'Saisissez-le pour confirmer votre identité.',
      register: 'Saisissez-le pour confirmer cette adresse e-mail.',
    },
    expires: (d) => `Il expire dans ${d}.`,
    ignore: {
      stepup:
        "Si vous n'avez pas essayé de vous connecter, quelqu'un d'autre connaît peut-être votre mot de passe : " +
        'changez-le.',
      register: "Si vous n'avez pas demandé ce code, vous pouvez ignorer ce message.",
    },
    neverShare: (app) => `Ne communiquez jamais ce code : ${app} ne vous le demandera jamais.`,
    sms: {
      stepup: (code, app, d) =>
        `${code} est votre code de vérification ${app}. Il expire dans ${d}. Ne le donnez à personne.`,
      register: (code, app, d) => `${code} est votre code pour confirmer ce numéro sur ${app}. Il expire dans ${d}.`,
    },
    smsShort: (code, d) => `${code} est votre code de vérification. Il expire dans ${d}.`,
  },

  account: {
    verify_email: {
      subject: (v) => `Confirmez votre adresse e-mail pour ${v.app}`,
      lead: (v) =>
        `Confirmez que ${v.address} est votre adresse e-mail pour ${v.app}. Le lien est valable ${v.linkExpires}.`,
      button: 'Confirmer mon adresse e-mail',
      codeLead: 'Ou saisissez ce code, valable',
      after: () => "Si vous n'avez rien demandé, vous pouvez ignorer ce message.",
      sms: (v) => `${v.code} est votre code pour confirmer cet e-mail sur ${v.app}.`,
    },
    change_email: {
      subject: (v) => `Confirmez votre nouvelle adresse e-mail pour ${v.app}`,
      lead: (v) =>
        `Vous avez demandé à utiliser ${v.address} pour votre compte ${v.app}. Elle remplacera l'ancienne dès que ` +
        `vous l'aurez confirmée ; le lien est valable ${v.linkExpires}.`,
      button: 'Confirmer ma nouvelle adresse',
      codeLead: 'Ou saisissez ce code, valable',
      after: () => "Si vous n'avez rien demandé, ignorez ce message : rien ne change.",
      sms: (v) => `${v.code} est votre code pour confirmer cet e-mail sur ${v.app}.`,
    },
    reset_password: {
      subject: (v) => `Réinitialisez votre mot de passe ${v.app}`,
      lead: (v) =>
        `Quelqu'un a demandé à réinitialiser le mot de passe de votre compte ${v.app}. Le lien est ` +
        `valable ${v.linkExpires}.`,
      button: 'Choisir un nouveau mot de passe',
      codeLead: 'Ou saisissez ce code, valable',
      after: () =>
        "Si ce n'était pas vous, ignorez ce message : votre mot de passe ne change pas. Ne communiquez jamais ce " +
        'code ni ce lien.',
      sms: (v) =>
        `${v.code} est votre code de réinitialisation ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
    },
    verify_phone: {
      subject: (v) => `Confirmez votre numéro de téléphone pour ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) => `${v.code} est votre code pour confirmer ce numéro sur ${v.app}. Il expire dans ${v.expires}.`,
    },
    change_phone: {
      subject: (v) => `Confirmez votre nouveau numéro pour ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) =>
        `${v.code} est votre code pour confirmer votre nouveau numéro sur ${v.app}. Il expire dans ${v.expires}.`,
    },
    email_changed: {
      subject: (v) => `L'adresse e-mail de votre compte ${v.app} a été modifiée`,
      lead: (v) => `Le ${v.when}, l'adresse e-mail de votre compte ${v.app} a été remplacée par ${v.address}.`,
      after: () =>
        "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant et " +
        'contactez le support.',
      sms: (v) =>
        `${v.app} : l'adresse e-mail de votre compte a été modifiée. Pas vous ? Réinitialisez votre mot de passe.`,
    },
    phone_changed: {
      subject: (v) => `Le numéro de téléphone de votre compte ${v.app} a été modifié`,
      lead: (v) => `Le ${v.when}, le numéro de téléphone de votre compte ${v.app} a été remplacé par ${v.address}.`,
      after: () =>
        "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant et " +
        'contactez le support.',
      sms: (v) => `${v.app} : le numéro de votre compte a été modifié. Pas vous ? Réinitialisez votre mot de passe.`,
    },
    password_changed: {
      subject: (v) => `Votre mot de passe ${v.app} a été modifié`,
      lead: (v) =>
        `Le ${v.when}, le mot de passe de votre compte ${v.app} a été modifié et vos autres sessions ont été fermées.`,
      after: () => "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant.",
      sms: (v) => `${v.app} : votre mot de passe a été modifié. Pas vous ? Réinitialisez-le maintenant.`,
    },
    passwordless: {
      subject: (v) => `Connexion à ${v.app}`,
      lead: (v) =>
        `Ouvrez ce lien pour vous connecter à ${v.app} en tant que ${v.address}. Il sert une fois, ` +
        `pendant ${v.linkExpires}.`,
      button: 'Me connecter',
      codeLead: 'Ou saisissez ce code, valable',
      after: () =>
        "Si vous n'avez pas essayé de vous connecter, ignorez ce message. Ne communiquez jamais ce lien ni ce code.",
      sms: (v) =>
        `${v.code} est votre code de connexion ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
    },
    account_recovery: {
      subject: (v) => `Récupérez votre compte ${v.app}`,
      lead: (v) =>
        `Quelqu'un a demandé à récupérer votre compte ${v.app} : ce lien ou ce code permet d'enregistrer une ` +
        `nouvelle clé d'accès. Le lien est valable ${v.linkExpires}.`,
      button: "Enregistrer une nouvelle clé d'accès",
      codeLead: 'Ou saisissez ce code, valable',
      after: () =>
        "Si ce n'était pas vous, ignorez ce message : rien ne change. Ne communiquez jamais ce lien ni ce code.",
      sms: (v) =>
        `${v.code} est votre code de récupération ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
    },
    invitation: {
      subject: (v) => `Vous êtes invité sur ${v.app}`,
      lead: (v) =>
        `Un compte a été créé pour vous sur ${v.app} avec l'adresse ${v.address}. Choisissez votre mot de passe pour ` +
        `commencer ; le lien est valable ${v.linkExpires}.`,
      button: 'Choisir mon mot de passe',
      after: () => 'Si vous ne vous y attendiez pas, ignorez ce message.',
      sms: (v) =>
        `${v.app} : un compte a été créé pour vous. Ouvrez le lien reçu par e-mail pour choisir un mot de passe.`,
    },
    passkeys_reset: {
      subject: (v) => `Une nouvelle clé d'accès a été enregistrée pour votre compte ${v.app}`,
      lead: (v) =>
        `Le ${v.when}, votre compte ${v.app} a été récupéré : une nouvelle clé d'accès a été enregistrée et vos ` +
        `autres sessions ont été fermées.`,
      after: () =>
        "Si c'est vous, il n'y a rien d'autre à faire. Sinon, récupérez votre compte maintenant et contactez le support.",
      sms: (v) => `${v.app} : votre compte a été récupéré avec une nouvelle clé d'accès. Pas vous ? Récupérez-le.`,
    },
    delete_account: {
      subject: (v) => `Votre code pour supprimer votre compte ${v.app}`,
      lead: (v) =>
        `Quelqu'un a demandé la suppression de votre compte ${v.app}. Saisissez le code ci-dessous sur la page du ` +
        'compte pour la confirmer.',
      codeLead: 'Votre code, valable',
      after: () => "Si ce n'est pas vous, ignorez ce message : rien n'est supprimé. Ne partagez jamais ce code.",
      sms: (v) => `${v.code} est votre code pour supprimer votre compte ${v.app}. Il expire dans ${v.expires}.`,
    },
    account_deletion_scheduled: {
      subject: (v) => `Votre compte ${v.app} va être supprimé`,
      lead: (v) =>
        `Vous avez demandé la suppression de votre compte ${v.app} : vous avez été déconnecté partout, et le compte ` +
        `et ses données seront effacés le ${v.when}.`,
      after: () => "Vous avez changé d'avis ? Reconnectez-vous d'ici là : cela annule la suppression.",
      sms: (v) => `${v.app} : votre compte sera supprimé le ${v.when}. Connectez-vous avant pour annuler.`,
    },
    account_deleted: {
      subject: (v) => `Votre compte ${v.app} a été supprimé`,
      lead: (v) =>
        `Le ${v.when}, votre compte ${v.app} et les données qui lui étaient liées ont été effacés, comme vous l'avez demandé.`,
      after: () => "C'est définitif. Si ce n'est pas vous, contactez le support.",
      sms: (v) => `${v.app} : votre compte a été supprimé, comme vous l'avez demandé.`,
    },
    confirm_consent: {
      subject: (v) => `Confirmez votre choix pour ${v.app}`,
      lead: (v) =>
        `Vous avez accepté « ${v.address} » sur ${v.app}. Confirmez-le avec ce lien, valable une fois, pendant ${v.linkExpires}.`,
      button: 'Confirmer',
      after: () => "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : rien ne change.",
      sms: (v) => `${v.app} : ouvrez le lien reçu par e-mail pour confirmer votre choix.`,
    },
    claim_profile: {
      subject: (v) => `Terminez la création de votre compte ${v.app}`,
      lead: (v) =>
        `Quelqu'un s'est inscrit sur ${v.app} avec ${v.address}, une adresse que ${v.app} connaît déjà. Pour terminer, ` +
        `ouvrez le lien et saisissez le mot de passe choisi à l'inscription ; il est valable ${v.linkExpires}.`,
      button: 'Terminer la création de mon compte',
      after: () =>
        "Si vous ne vous êtes pas inscrit, ignorez ce message : rien ne change et personne n'obtient d'accès.",
      sms: (v) => `${v.app} : ouvrez le lien reçu par e-mail pour terminer la création de votre compte.`,
    },
  },
  codeLineEnd: ' :',

  factorNotice: {
    subject: {
      factor_added: (app) => `Un second facteur a été ajouté à votre compte ${app}`,
      factor_removed: (app) => `Un second facteur a été retiré de votre compte ${app}`,
    },
    factor: {
      email: (m) => `l'adresse e-mail ${m}`,
      sms: (m) => `le numéro ${m}`,
      totp: () => "une application d'authentification",
    },
    what: {
      factor_added: (f, app, when) =>
        `Le ${when}, ${f} a été ajouté(e) à la vérification en deux étapes de votre compte ${app}.`,
      factor_removed: (f, app, when) =>
        `Le ${when}, ${f} a été retiré(e) de la vérification en deux étapes de votre compte ${app}.`,
    },
    ifYou:
      "Si vous êtes à l'origine de ce changement, vous n'avez rien à faire. Les appareils de confiance vous " +
      'demanderont de nouveau un code.',
    ifNot:
      "Sinon, quelqu'un d'autre est peut-être connecté à votre compte : changez votre mot de passe, déconnectez " +
      'vos autres sessions et vérifiez vos seconds facteurs.',
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app} : ` : ''}${f} a été ajouté à votre vérification en deux étapes. Pas vous ? Changez votre ` +
        `mot de passe.`,
      factor_removed: (f, app) =>
        `${app ? `${app} : ` : ''}${f} a été retiré de votre vérification en deux étapes. Pas vous ? Changez votre ` +
        `mot de passe.`,
    },
    reset: {
      subject: (app) => `La validation en deux étapes de votre compte ${app} a été réinitialisée`,
      what: (app, when) =>
        `Le ${when}, un administrateur a supprimé tous les seconds facteurs et clés d'accès de votre compte ${app}, ` +
        'à votre demande ou après avoir vérifié votre identité.',
      ifYou:
        'Connectez-vous avec votre mot de passe, puis configurez à nouveau la validation en deux étapes sur la page ' +
        'de votre compte.',
      sms: (app) =>
        `${app ? `${app} : ` : ''}Validation en deux étapes réinitialisée par un administrateur. Pas vous ? Contactez le support.`,
    },
    recoveryCode: {
      subject: (app) => `Un code de secours a été utilisé pour votre compte ${app}`,
      what: (app, when, left) =>
        `Le ${when}, un code de secours a été utilisé pour vous connecter à votre compte ${app}. Il vous reste ${left} ` +
        'codes de secours.',
      ifYou:
        "Si c'était vous, il n'y a rien d'autre à faire ; créez une nouvelle série de codes sur la page de votre " +
        'compte quand il en reste peu.',
      sms: (app, left) =>
        `${app ? `${app} : ` : ''}Code de secours utilisé (il en reste ${left}). Pas vous ? Changez votre mot de passe.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `Une clé d'accès a été ajoutée à votre compte ${app}`,
        factor_removed: (app) => `Une clé d'accès a été retirée de votre compte ${app}`,
      },
      what: {
        factor_added: (app, when) =>
          `Le ${when}, une clé d'accès a été ajoutée à votre compte ${app} : elle permet de vous y connecter.`,
        factor_removed: (app, when) => `Le ${when}, une clé d'accès a été retirée de votre compte ${app}.`,
      },
      sms: {
        factor_added: (app) =>
          `${app ? `${app} : ` : ''}Une clé d'accès a été ajoutée à votre compte. Pas vous ? Changez votre mot de passe.`,
        factor_removed: (app) =>
          `${app ? `${app} : ` : ''}Une clé d'accès a été retirée de votre compte. Pas vous ? Changez votre mot de passe.`,
      },
    },
  },

  lockNotice: {
    subject: (app) => `La connexion à votre compte ${app} est suspendue`,
    what: (app, when, until) =>
      `Le ${when}, après trop de mots de passe erronés, la connexion par mot de passe à votre compte ${app} a été ` +
      `suspendue jusqu'au ${until}.`,
    ifYou:
      "Si c'était vous, patientez jusque-là ou réinitialisez votre mot de passe. Les autres moyens de connexion " +
      'restent possibles.',
    ifNot:
      "Si ce n'était pas vous, quelqu'un essaie peut-être de deviner votre mot de passe : choisissez-en un " +
      'nouveau, unique, et activez la vérification en deux étapes.',
    sms: (app, until) =>
      `${app ? `${app} : ` : ''}trop de mots de passe erronés, connexion suspendue jusqu'au ${until}. Pas vous ? ` +
      `Changez votre mot de passe.`,
  },
};
