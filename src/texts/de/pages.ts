// German texts of the hosted pages (formal "Sie"), typed against English (../en/pages.ts says what
// each is for).
import type { Texts } from '../en/index.js';

type Channel = 'email' | 'sms';
type Pending = { email: string | null; phone: string | null };

export const pages: Texts['pages'] = {
  login: {
    title: 'Anmelden',
    heading: (client: string) => `Bei ${client} anmelden`,
    email: 'E-Mail',
    anyIdentifier: 'E-Mail, Telefonnummer oder Benutzername',
    customIdentifier: 'Benutzername',
    password: 'Passwort',
    submit: 'Anmelden',
    passkey: 'Mit einem Passkey anmelden',
    provider: (label: string) => `Weiter mit ${label}`,
    cancel: 'Abbrechen',
    forgot: 'Passwort vergessen?',
    orPasswordless: 'Oder ohne Passwort anmelden:',
    magicLink: 'Anmeldelink per E-Mail senden',
    phone: 'Telefonnummer',
    sms: 'Code per SMS senden',
    noAccount: 'Noch kein Konto?',
    signup: 'Konto erstellen',
  },
  signup: {
    title: 'Konto erstellen',
    heading: (client: string) => `Erstellen Sie Ihr Konto für ${client}`,
    email: 'E-Mail',
    password: 'Passwort',
    hint: (min: number) =>
      `Mindestens ${min} Zeichen; weder Ihre E-Mail-Adresse noch Ihr Name noch ein gängiges Passwort.`,
    givenName: 'Vorname',
    familyName: 'Nachname',
    optional: '(optional)',
    yes: 'Ja',
    submit: 'Mein Konto erstellen',
    haveAccount: 'Sie haben bereits ein Konto?',
    signIn: 'Anmelden',
    sentTitle: 'Prüfen Sie Ihre E-Mails',
    sent: (email: string) =>
      `Wir haben einen Link an ${email} gesendet. Öffnen Sie ihn, um Ihre Adresse zu bestätigen, und melden ` +
      'Sie sich dann an. Der Link ist nur begrenzte Zeit gültig.',
  },
  strength: {
    label: 'Stärke',
    words: ['Sehr schwach', 'Schwach', 'Mittel', 'Gut', 'Stark'],
  },
  signIn: {
    wrongPassword: 'Die E-Mail-Adresse oder das Passwort ist falsch.',
    tooManyAttempts: 'Zu viele Anmeldeversuche. Warten Sie eine Minute und versuchen Sie es erneut.',
    passkeyFailed:
      'Dieser Passkey konnte nicht verwendet werden. Versuchen Sie es erneut oder verwenden Sie Ihr Passwort.',
    wrongCode: 'Der Code ist falsch oder abgelaufen. Versuchen Sie es erneut oder fordern Sie einen neuen an.',
    tooManyCodes: 'Es wurden zu viele Codes angefordert. Warten Sie, bevor Sie einen weiteren anfordern.',
    accountDelayed: 'Zu viele fehlgeschlagene Versuche für dieses Konto. Versuchen Sie es gleich noch einmal.',
    accountLocked:
      'Zu viele fehlgeschlagene Versuche für dieses Konto. Versuchen Sie es später erneut oder setzen Sie ' +
      'Ihr Passwort zurück.',
    codeSent: 'Ein neuer Code wurde gesendet. Der vorherige ist nicht mehr gültig.',
  },
  account: {
    title: 'Ihr Konto',
    signedOut: 'Sie sind nicht angemeldet',
    signedOutLead: 'Melden Sie sich bei einer Anwendung an, die dieses Konto nutzt, und öffnen Sie diese Seite erneut.',
    email: 'E-Mail',
    phone: 'Telefonnummer',
    none: 'Keine',
    confirmed: 'bestätigt',
    unconfirmed: 'nicht bestätigt',
    changeEmail: 'E-Mail-Adresse ändern',
    newEmail: 'Neue E-Mail-Adresse',
    sendLink: 'Bestätigungslink senden',
    changePhone: 'Telefonnummer ändern',
    newPhone: 'Neue Telefonnummer',
    phoneHint: 'Im internationalen Format, zum Beispiel +33612345678.',
    sendSms: 'Code per SMS senden',
    enterPhoneCode: (to: string) => `Geben Sie den Code ein, den wir per SMS an ${to} gesendet haben.`,
    smsCode: 'Per SMS erhaltener Code',
    confirmPhone: 'Diese Nummer bestätigen',
    changePassword: 'Passwort ändern',
    currentPassword: 'Aktuelles Passwort',
    newPassword: 'Neues Passwort',
    passwordHint: (min: number) =>
      `Mindestens ${min} Zeichen; weder Ihre E-Mail-Adresse noch Ihr Name noch ein gängiges Passwort. ` +
      'Ihre anderen Sitzungen werden abgemeldet.',
    confirmPassword: 'Neues Passwort bestätigen',
    savePassword: 'Mein Passwort ändern',
    stepUpHeading: 'Bestätigen Sie, dass Sie es sind',
    appCode: 'Code Ihrer Authenticator-App',
    recoveryCode: 'Oder ein Wiederherstellungscode',
    authenticatorApp: 'Authenticator-App',
    appOn: 'aktiviert',
    securityKeys: 'Sicherheitsschlüssel und Passkeys',
    keysCount: (n: number) => `${n}, als zweiter Faktor nutzbar`,
    recoveryCodes: 'Wiederherstellungscodes',
    recoveryLeft: (n: number) => `noch ${n}`,
    appHeading: 'Authenticator-App',
    appLead: 'Eine App wie Google Authenticator, Aegis oder 1Password zeigt alle 30 Sekunden einen neuen Code.',
    appSetUp: 'Authenticator-App einrichten',
    appScan:
      'Scannen Sie diesen Code mit der App oder geben Sie den Schlüssel von Hand ein, dann den angezeigten Code.',
    appKey: 'Schlüssel',
    appEnable: 'Aktivieren',
    appRemove: 'Authenticator-App entfernen',
    newRecoveryCodes: 'Neue Wiederherstellungscodes erstellen',
    recoveryShown:
      'Ihre Wiederherstellungscodes. Bewahren Sie sie sicher auf: Jeder gilt einmal, wenn Sie die App nicht nutzen können, und sie werden nur jetzt angezeigt.',
    stepUpLead:
      'Um Ihre E-Mail-Adresse, Telefonnummer oder Ihr Passwort zu ändern, bestätigen Sie zuerst mit einem Code, ' +
      'dass Sie es sind.',
    sendCode: (c: Channel, to: string) => `Code per ${c === 'email' ? 'E-Mail' : 'SMS'} an ${to} senden`,
    codeSentTo: (c: Channel) =>
      `Wir haben einen Code ${c === 'email' ? 'an Ihre E-Mail-Adresse' : 'an Ihr Telefon'} gesendet.`,
    verificationCode: 'Bestätigungscode',
    verify: 'Bestätigen',
    resend: 'Neuen Code senden',
    back: (app: string) => `Zurück zu ${app}`,
    notices: {
      email_sent: (p: Pending) =>
        `Wir haben einen Link an ${p.email ?? 'Ihre neue Adresse'} gesendet; Ihre Adresse ändert sich, ` +
        'sobald Sie ihn öffnen.',
      phone_code_sent: (p: Pending) => `Wir haben einen Code per SMS an ${p.phone ?? 'Ihre neue Nummer'} gesendet.`,
      phone_changed: () => 'Ihre Telefonnummer ist bestätigt.',
      password_changed: () => 'Ihr Passwort wurde geändert. Ihre anderen Sitzungen wurden abgemeldet.',
      app_removed: () => 'Die Authenticator-App wurde entfernt, mit ihren Wiederherstellungscodes.',
      session_ended: () => 'Diese Sitzung wurde abgemeldet.',
      others_ended: () => 'Ihre anderen Sitzungen wurden abgemeldet.',
      device_forgotten: () => 'Diesem Gerät wird nicht mehr vertraut: Es fragt wieder nach Ihrem zweiten Faktor.',
      confirmed: () => 'Vielen Dank. Sie können jetzt Ihre E-Mail-Adresse, Telefonnummer oder Ihr Passwort ändern.',
    },
    signIns: {
      heading: 'Wo Sie angemeldet sind',
      lead: 'Die Browser, in denen Ihr Konto angemeldet ist. Melden Sie unbekannte ab und ändern Sie dann Ihr Passwort.',
      device: (browser: string | null, os: string | null) =>
        browser && os ? `${browser} unter ${os}` : (browser ?? os ?? 'Unbekannter Browser'),
      thisDevice: 'Dieses Gerät',
      signedIn: (when: string) => `Angemeldet am ${when}`,
      lastUsed: (when: string) => `zuletzt genutzt am ${when}`,
      signOut: 'Abmelden',
      signOutLabel: (device: string) => `${device} abmelden`,
      othersButton: 'Überall sonst abmelden',
      noOthers: 'Sie sind nur auf diesem Gerät angemeldet.',
      place: 'Der Ort einer Anmeldung wird nicht angezeigt.',
      placeOf: (place: string) => `Ungefährer Ort: ${place}`,
      devicesHeading: 'Vertrauenswürdige Geräte',
      devicesLead: 'Diese Browser fragen bis zu ihrem Ablauf nicht nach Ihrem zweiten Faktor.',
      trusted: (since: string, until: string) => `Vertraut seit ${since}, bis ${until}`,
      forget: 'Nicht mehr vertrauen',
      forgetLabel: (device: string) => `${device} nicht mehr vertrauen`,
      eventsHeading: 'Letzte Sicherheitsereignisse',
      noEvents: 'Noch nichts.',
      byAdministrator: '(durch einen Administrator)',
      events: {
        signIn: 'Angemeldet',
        locked: 'Passwort-Anmeldung nach Fehlversuchen gesperrt',
        password: 'Passwort geändert',
        email: 'E-Mail-Adresse geändert',
        phone: 'Telefonnummer geändert',
        factorAdded: 'Zweiter Faktor hinzugefügt',
        factorRemoved: 'Zweiter Faktor entfernt',
        factorsReset: 'Alle zweiten Faktoren zurückgesetzt',
        recoveryCodeUsed: 'Wiederherstellungscode verwendet',
        recoveryCodes: 'Neue Wiederherstellungscodes erstellt',
        sessionsEnded: 'Sitzungen abgemeldet',
      } as Record<string, string>,
    },
    leave: {
      dataHeading: 'Ihre Daten',
      dataLead:
        'Eine JSON-Datei mit allem, was über Sie gespeichert ist: Profil, Anmeldemethoden, Sitzungen, Einwilligungen und Verlauf.',
      dataLink: 'Meine Daten herunterladen',
      deleteHeading: 'Mein Konto löschen',
      deleteLead: (graceDays: number) =>
        graceDays === 0
          ? 'Ihr Konto und alles, was dazu gespeichert ist, werden sofort gelöscht. Das lässt sich nicht rückgängig machen.'
          : `Sie werden sofort überall abgemeldet, und Ihr Konto und alles, was dazu gespeichert ist, werden nach ${graceDays} ${graceDays === 1 ? 'Tag' : 'Tagen'} gelöscht. Eine erneute Anmeldung vorher hebt das auf.`,
      password: 'Ihr Passwort',
      sendCode: 'Senden Sie mir einen Bestätigungscode',
      codeSent: (c: Channel) =>
        `Wir haben einen Code ${c === 'email' ? 'an Ihre E-Mail-Adresse' : 'an Ihr Telefon'} gesendet.`,
      code: 'Code',
      confirm: 'Ich verstehe: mein Konto und alle seine Daten löschen',
      button: 'Mein Konto löschen',
      deletedTitle: 'Ihr Konto wurde gelöscht',
      deletedLead: 'Ihr Konto und seine Daten wurden gelöscht. Auf Wiedersehen.',
      scheduledTitle: 'Ihr Konto wird gelöscht',
      scheduledLead: (date: string) =>
        `Sie wurden überall abgemeldet. Ihr Konto wird am ${date} gelöscht; melden Sie sich vorher an, um es abzubrechen.`,
    },
    problems: {
      expired: 'Dieses Formular ist abgelaufen. Versuchen Sie es erneut.',
      invalidEmail: 'Geben Sie eine gültige E-Mail-Adresse ein.',
      sameEmail: 'Das ist bereits Ihre E-Mail-Adresse.',
      invalidPhone: 'Geben Sie eine Telefonnummer im internationalen Format ein, zum Beispiel +33612345678.',
      samePhone: 'Das ist bereits Ihre Telefonnummer.',
      missing: 'Füllen Sie alle Felder aus.',
      passwordsDiffer: 'Die beiden neuen Passwörter stimmen nicht überein.',
      tooMany: 'Zu viele Versuche. Warten Sie einen Moment und versuchen Sie es erneut.',
      stepUpRequired: 'Bestätigen Sie zuerst mit einem Code, dass Sie es sind.',
      too_short: (min: number) => `Das Passwort muss mindestens ${min} Zeichen haben (und höchstens 256).`,
      too_common: 'Dieses Passwort ist zu verbreitet. Wählen Sie ein anderes.',
      contains_user_info: 'Das Passwort darf weder Ihre E-Mail-Adresse noch Ihren Namen enthalten.',
      too_weak: 'Dieses Passwort ist zu leicht zu erraten. Einige unzusammenhängende Wörter ergeben ein starkes.',
      breached: 'Dieses Passwort ist in einem Datenleck aufgetaucht. Wählen Sie ein anderes.',
      missing_characters:
        'Diesem Passwort fehlt ein Zeichen, das die Richtlinie verlangt (Großbuchstaben, Kleinbuchstaben, Ziffern oder Sonderzeichen).',
    },
  },
  authorizeError: {
    title: 'Autorisierungsfehler',
    heading: 'Diese Anfrage kann nicht abgeschlossen werden',
    error: 'Fehler:',
  },
  completeProfile: {
    title: 'Vervollständigen Sie Ihr Profil',
    heading: (client: string) => `Vervollständigen Sie Ihr Profil für ${client}`,
    intro: (provider: string) =>
      `Sie haben sich mit ${provider} angemeldet. Es fehlen noch einige Angaben, bevor Ihr Konto erstellt ` +
      'werden kann.',
    gave: (provider: string) => `${provider} hat uns übermittelt:`,
    name: 'Name',
    email: 'E-Mail',
    colon: ': ',
    verified: 'vom Anbieter bestätigt',
    unverified: 'nicht vom Anbieter bestätigt',
    nothing: 'weder Name noch E-Mail',
    choose: 'Auswählen…',
    required: 'Dieses Feld ist erforderlich.',
    invalid: (_detail: string) => 'Dieser Wert ist ungültig.',
    problems: 'Einige Felder fehlen oder sind ungültig.',
    submit: 'Mein Konto erstellen',
  },
  messengerConfirm: {
    title: 'Ihr Messenger-Konto verknüpfen',
    heading: (client: string) => `Ihr Messenger-Konto mit ${client} verknüpfen?`,
    body: (who: string, client: string) =>
      `Sie sind als ${who} angemeldet. ${client} erhält Ihren Namen und Ihre E-Mail-Adresse.`,
    allow: 'Mein Konto verknüpfen',
    cancel: 'Abbrechen',
  },
  signInConfirm: {
    title: 'Anmeldung bestätigen',
    heading: (client: string) => `Auf diesem Gerät bei ${client} anmelden?`,
    startedAs: 'Eine Anmeldung als',
    startedElsewhere:
      'wurde außerhalb dieses Browsers begonnen. Fahren Sie nur fort, wenn Sie sie selbst begonnen haben.',
    allow: 'Anmelden',
    cancel: 'Abbrechen',
  },
  expired: {
    title: 'Anmeldung abgelaufen',
    formHeading: 'Dieses Anmeldeformular ist abgelaufen',
    socialHeading: 'Diese Anmeldung ist abgelaufen oder wurde nicht hier begonnen',
    again: 'Kehren Sie zur Anwendung zurück und beginnen Sie erneut.',
  },
  formPost: {
    title: 'Dieses Formular senden',
    noScript: 'Skripte sind deaktiviert: Fahren Sie mit der Anwendung fort.',
    submit: 'Weiter',
  },
  link: {
    title: 'Ihr Konto verknüpfen',
    heading: 'Sie haben bereits ein Konto',
    lead: (email: string, provider: string) =>
      `Für ${email} besteht bereits ein Konto. Geben Sie dessen Passwort ein, um Ihre Anmeldung über ` +
      `${provider} damit zu verknüpfen.`,
    password: 'Passwort',
    submit: 'Verknüpfen und anmelden',
    incorrectPassword: 'Das Passwort ist falsch.',
  },
  logout: {
    confirmTitle: 'Abmelden?',
    asks: (client: string) => `${client} möchte Sie abmelden.`,
    signedInAs: (who: string) => `Sie sind als ${who} angemeldet.`,
    signOut: 'Abmelden',
    staySignedIn: 'Angemeldet bleiben',
    signedOutTitle: 'Abgemeldet',
    signedOut: 'Sie sind abgemeldet',
    notRegistered: (url: string) => `Die Rücksprungadresse ${url} ist nicht registriert, daher bleiben Sie hier.`,
    stillTitle: 'Weiterhin angemeldet',
    still: 'Sie sind weiterhin angemeldet',
    errorTitle: 'Abmeldefehler',
    errorHeading: 'Diese Abmeldeanfrage kann nicht abgeschlossen werden',
    error: 'Fehler:',
  },
  passwordless: {
    confirmTitle: 'Anmeldung bestätigen',
    confirmHeading: 'Auf diesem Gerät anmelden?',
    otherBrowser:
      'Dieser Anmeldelink oder -code wurde nicht in diesem Browser angefordert. Fahren Sie nur fort, wenn Sie ' +
      'ihn selbst angefordert haben.',
    signingIn: (client: string) => `Anmeldung bei ${client}`,
    as: 'als',
    submit: 'Anmelden',
    sentTitle: 'Prüfen Sie Ihre Nachrichten',
    sentHeading: (client: string) => `Bei ${client} anmelden`,
    sentLink: (to: string) =>
      `Falls ein Konto ${to} verwendet, haben wir einen Anmeldelink und einen Code dorthin gesendet. Öffnen ` +
      'Sie den Link in diesem Browser oder geben Sie den Code hier ein.',
    sentSms: (to: string) =>
      `Falls ein Konto ${to} verwendet, haben wir einen Code per SMS gesendet. Geben Sie ihn hier ein.`,
    code: 'Code',
  },
  secondFactor: {
    title: 'Bestätigungscode',
    heading: 'Bestätigen Sie, dass Sie es sind',
    lead: (where: Channel, client: string) =>
      `Wir haben einen Code ${where === 'email' ? 'an Ihre E-Mail-Adresse' : 'an Ihr Telefon'} gesendet, ` +
      `damit Sie sich bei ${client} anmelden können.`,
    code: 'Bestätigungscode',
    verify: 'Bestätigen',
    resend: 'Neuen Code senden',
    other: (c: Channel) => `Code stattdessen per ${c === 'email' ? 'E-Mail' : 'SMS'} senden`,
    leadApp: (client: string) => `Geben Sie den Code Ihrer Authenticator-App ein, um sich bei ${client} anzumelden.`,
    useApp: 'Stattdessen meine Authenticator-App verwenden',
    /** A security key or passkey (WebAuthn): nothing is sent. */
    leadKey: (client: string) =>
      `Verwenden Sie Ihren Sicherheitsschlüssel oder Passkey, um sich bei ${client} anzumelden.`,
    useKey: 'Stattdessen meinen Sicherheitsschlüssel oder Passkey verwenden',
    keyButton: 'Meinen Sicherheitsschlüssel verwenden',
    recoveryLabel: 'Oder ein Wiederherstellungscode',
    useRecovery: 'Diesen Wiederherstellungscode verwenden',
  },
  enrolment: {
    title: 'Zweiten Faktor einrichten',
    heading: 'Schützen Sie Ihr Konto mit einem zweiten Faktor',
    lead: (client: string) =>
      `${client} bittet Sie, vor der Anmeldung einen zweiten Faktor einzurichten: Eine Authenticator-App zeigt alle 30 Sekunden einen neuen Code.`,
    scan: 'Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie den Schlüssel von Hand ein.',
    key: 'Schlüssel',
    code: 'Der Code, den Ihre App anzeigt',
    enable: 'Aktivieren und fortfahren',
    useEmail: (to: string) => `Codes stattdessen per E-Mail an ${to} erhalten`,
    useSms: (to: string) => `Codes stattdessen per SMS an ${to} erhalten`,
    useKey: 'Stattdessen einen Sicherheitsschlüssel oder Passkey verwenden',
    keyLead:
      'Drücken Sie die Schaltfläche und berühren Sie dann Ihren Sicherheitsschlüssel oder bestätigen Sie mit Ihrem Passkey.',
    keyCreate: 'Meinen Sicherheitsschlüssel oder Passkey registrieren',
    keyName: 'Sicherheitsschlüssel',
    sentTo: (to: string) =>
      `Wir haben einen Code an ${to} gesendet. Geben Sie ihn hier ein, um diese Adresse als zweiten Faktor zu verwenden.`,
    sentCode: 'Der gesendete Code',
    sentVerify: 'Bestätigen und fortfahren',
    later: 'Später',
    skipsLeft: (n: number) =>
      n === 1 ? 'Sie können dies noch einmal aufschieben.' : `Sie können dies noch ${n} Mal aufschieben.`,
    noSkipLeft: 'Dies kann nicht mehr aufgeschoben werden: Richten Sie einen zweiten Faktor ein, um sich anzumelden.',
    codesTitle: 'Ihre Wiederherstellungscodes',
    codesLead:
      'Bewahren Sie diese Wiederherstellungscodes sicher auf: Jeder meldet Sie einmal an, falls Sie Ihre Authenticator-App verlieren. Sie werden nur jetzt angezeigt.',
    continue: 'Weiter',
    lastCodeTitle: 'Keine Wiederherstellungscodes mehr',
    lastCodeLead:
      'Sie haben Ihren letzten Wiederherstellungscode verwendet. Erstellen Sie jetzt neue, damit Sie sich auch ohne Ihre Authenticator-App anmelden können.',
    newCodes: 'Neue Wiederherstellungscodes erstellen',
    notNow: 'Ohne neue Codes fortfahren',
  },
  liteClaim: {
    title: 'Kontoerstellung abschließen',
    lead: (email: string) =>
      `Um das Konto von ${email} fertig zu erstellen, geben Sie das bei der Registrierung gewählte Passwort ein.`,
    password: 'Bei der Registrierung gewähltes Passwort',
    submit: 'Abschließen',
    wrongPassword: 'Das ist nicht das bei der Registrierung gewählte Passwort.',
    notYou: 'Wenn Sie sich nicht registriert haben, schließen Sie diese Seite: Es ändert sich nichts.',
    doneTitle: 'Ihr Konto ist bereit',
    done: (email: string) => `Das Konto von ${email} ist bereit: Melden Sie sich mit dem gewählten Passwort an.`,
  },
  selfService: {
    continue: 'Weiter',
    confirmEmail: 'Bestätigen Sie Ihre E-Mail-Adresse',
    confirmLead: (email: string) => `Bestätigen Sie, dass ${email} Ihre E-Mail-Adresse ist.`,
    confirmSignup:
      'Bestätigen Sie nur, wenn Sie dieses Konto selbst erstellt haben: Wer es erstellt hat, kann sich damit ' +
      'anmelden.',
    confirmButton: 'Meine Adresse bestätigen',
    emailConfirmed: 'E-Mail-Adresse bestätigt',
    isConfirmed: (email: string) => `${email} ist bestätigt.`,
    linkExpiredTitle: 'Link abgelaufen',
    linkExpired: 'Dieser Link ist abgelaufen oder wurde bereits verwendet',
    askAgain: 'Fordern Sie in der Anwendung einen neuen an.',
    choosePassword: 'Wählen Sie ein neues Passwort',
    newPassword: 'Neues Passwort',
    hint: (min: number) =>
      `Mindestens ${min} Zeichen; weder Ihre E-Mail-Adresse noch Ihr Name noch ein gängiges Passwort.`,
    confirmPassword: 'Neues Passwort bestätigen',
    changePassword: 'Mein Passwort ändern',
    changedTitle: 'Passwort geändert',
    changed: 'Ihr Passwort wurde geändert',
    signInAgain: 'Melden Sie sich mit Ihrem neuen Passwort an. Ihre anderen Sitzungen wurden abgemeldet.',
    forgot: 'Passwort vergessen?',
    forgotLead:
      'Geben Sie die E-Mail-Adresse Ihres Kontos ein: Wir senden Ihnen einen Link und einen Code, um ein neues ' +
      'Passwort zu wählen.',
    email: 'E-Mail',
    sendLink: 'Link senden',
    checkEmail: 'Prüfen Sie Ihre E-Mails',
    passwordsDiffer: 'Die beiden Passwörter stimmen nicht überein.',
    sent:
      'Falls ein Konto diese Adresse verwendet, ist ein Link zum Wählen eines neuen Passworts unterwegs. Er ist ' +
      'nur begrenzte Zeit gültig.',
  },
  popup: {
    title: 'Anmeldung',
    done: 'Sie werden angemeldet. Dieses Fenster schließt sich von selbst.',
    failed: 'Die Anmeldung wurde nicht abgeschlossen. Dieses Fenster schließt sich von selbst.',
  },
  consentConfirm: {
    title: 'Bestätigen Sie Ihre Auswahl',
    lead: (title: string) => `Bestätigen Sie, dass Sie „${title}“ zustimmen.`,
    button: 'Bestätigen',
    doneTitle: 'Vielen Dank',
    done: (title: string) => `Ihre Zustimmung zu „${title}“ ist bestätigt.`,
  },
};
