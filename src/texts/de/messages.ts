import type { Texts } from '../en/index.js';

/** German emails and SMS (formal "Sie"; the SMS keep to the GSM-7 alphabet, which has ä, ö, ü and ß). */
export const messages: Texts['messages'] = {
  dateLocale: 'de-DE',
  units: { h: ['Stunde', 'Stunden'], min: ['Minute', 'Minuten'], s: ['Sekunde', 'Sekunden'] },

  code: {
    subject: (code, app) => `${code} ist Ihr Bestätigungscode für ${app}`,
    heading: (app) => `Ihr Bestätigungscode für ${app} lautet:`,
    lead: {
      stepup: 'Geben Sie ihn ein, um zu bestätigen, dass Sie es sind.',
      register: 'Geben Sie ihn ein, um diese E-Mail-Adresse zu bestätigen.',
    },
    expires: (d) => `Er läuft in ${d} ab.`,
    ignore: {
      stepup:
        'Wenn Sie nicht gerade versucht haben, sich anzumelden, kennt möglicherweise jemand anderes Ihr Passwort: ' +
        'Ändern Sie es.',
      register: 'Wenn Sie diesen Code nicht angefordert haben, können Sie diese Nachricht ignorieren.',
    },
    neverShare: (app) => `Geben Sie diesen Code niemals weiter: ${app} wird Sie nie danach fragen.`,
    sms: {
      stepup: (code, app, d) => `${code} ist Ihr Bestätigungscode für ${app}. Gültig für ${d}. Niemals weitergeben.`,
      register: (code, app, d) =>
        `${code} ist Ihr Code, um diese Telefonnummer für ${app} zu bestätigen. Gültig für ${d}.`,
    },
    smsShort: (code, d) => `${code} ist Ihr Bestätigungscode. Gültig für ${d}.`,
  },

  account: {
    verify_email: {
      subject: (v) => `Bestätigen Sie Ihre E-Mail-Adresse für ${v.app}`,
      lead: (v) =>
        `Bestätigen Sie, dass ${v.address} Ihre E-Mail-Adresse für ${v.app} ist. Der Link ist ${v.linkExpires} gültig.`,
      button: 'E-Mail-Adresse bestätigen',
      codeLead: 'Oder geben Sie diesen Code ein, gültig für',
      after: () => 'Wenn Sie dies nicht angefordert haben, können Sie diese Nachricht ignorieren.',
      sms: (v) => `${v.code} ist Ihr Code, um diese E-Mail-Adresse für ${v.app} zu bestätigen.`,
    },
    change_email: {
      subject: (v) => `Bestätigen Sie Ihre neue E-Mail-Adresse für ${v.app}`,
      lead: (v) =>
        `Sie möchten ${v.address} für Ihr ${v.app}-Konto verwenden. Sie ersetzt die bisherige, sobald Sie sie ` +
        `bestätigen; der Link ist ${v.linkExpires} gültig.`,
      button: 'Neue E-Mail-Adresse bestätigen',
      codeLead: 'Oder geben Sie diesen Code ein, gültig für',
      after: () => 'Wenn Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts.',
      sms: (v) => `${v.code} ist Ihr Code, um diese E-Mail-Adresse für ${v.app} zu bestätigen.`,
    },
    reset_password: {
      subject: (v) => `Setzen Sie Ihr Passwort für ${v.app} zurück`,
      lead: (v) =>
        `Jemand hat angefordert, das Passwort Ihres ${v.app}-Kontos zurückzusetzen. Der Link ist ${v.linkExpires} gültig.`,
      button: 'Neues Passwort wählen',
      codeLead: 'Oder geben Sie diesen Code ein, gültig für',
      after: () =>
        'Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert. Geben Sie diesen ' +
        'Code und diesen Link niemals weiter.',
      sms: (v) =>
        `${v.code} ist Ihr Code zum Zurücksetzen des Passworts für ${v.app}. Gültig für ${v.expires}. Niemals weitergeben.`,
    },
    verify_phone: {
      subject: (v) => `Bestätigen Sie Ihre Telefonnummer für ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) => `${v.code} ist Ihr Code, um diese Telefonnummer für ${v.app} zu bestätigen. Gültig für ${v.expires}.`,
    },
    change_phone: {
      subject: (v) => `Bestätigen Sie Ihre neue Telefonnummer für ${v.app}`,
      lead: () => '',
      after: () => '',
      sms: (v) =>
        `${v.code} ist Ihr Code, um Ihre neue Telefonnummer für ${v.app} zu bestätigen. Gültig für ${v.expires}.`,
    },
    email_changed: {
      subject: (v) => `Die E-Mail-Adresse Ihres ${v.app}-Kontos wurde geändert`,
      lead: (v) => `Am ${v.when} wurde die E-Mail-Adresse Ihres ${v.app}-Kontos in ${v.address} geändert.`,
      after: () =>
        'Wenn Sie diese Änderung vorgenommen haben, ist nichts weiter zu tun. Andernfalls setzen Sie jetzt Ihr ' +
        'Passwort zurück und wenden Sie sich an den Support.',
      sms: (v) =>
        `${v.app}: Die E-Mail-Adresse Ihres Kontos wurde geändert. Nicht Sie? Setzen Sie jetzt Ihr Passwort zurück.`,
    },
    phone_changed: {
      subject: (v) => `Die Telefonnummer Ihres ${v.app}-Kontos wurde geändert`,
      lead: (v) => `Am ${v.when} wurde die Telefonnummer Ihres ${v.app}-Kontos in ${v.address} geändert.`,
      after: () =>
        'Wenn Sie diese Änderung vorgenommen haben, ist nichts weiter zu tun. Andernfalls setzen Sie jetzt Ihr ' +
        'Passwort zurück und wenden Sie sich an den Support.',
      sms: (v) =>
        `${v.app}: Die Telefonnummer Ihres Kontos wurde geändert. Nicht Sie? Setzen Sie jetzt Ihr Passwort zurück.`,
    },
    password_changed: {
      subject: (v) => `Ihr Passwort für ${v.app} wurde geändert`,
      lead: (v) =>
        `Am ${v.when} wurde das Passwort Ihres ${v.app}-Kontos geändert, und Ihre anderen Sitzungen wurden abgemeldet.`,
      after: () =>
        'Wenn Sie diese Änderung vorgenommen haben, ist nichts weiter zu tun. Andernfalls setzen Sie jetzt Ihr ' +
        'Passwort zurück.',
      sms: (v) => `${v.app}: Ihr Passwort wurde geändert. Nicht Sie? Setzen Sie es jetzt zurück.`,
    },
    passwordless: {
      subject: (v) => `Bei ${v.app} anmelden`,
      lead: (v) =>
        `Öffnen Sie diesen Link, um sich bei ${v.app} als ${v.address} anzumelden. Er funktioniert einmal, ` +
        `${v.linkExpires} lang.`,
      button: 'Anmelden',
      codeLead: 'Oder geben Sie diesen Code ein, gültig für',
      after: () =>
        'Wenn Sie nicht versucht haben, sich anzumelden, ignorieren Sie diese Nachricht. Geben Sie diesen Link und ' +
        'diesen Code niemals weiter.',
      sms: (v) => `${v.code} ist Ihr Anmeldecode für ${v.app}. Gültig für ${v.expires}. Niemals weitergeben.`,
    },
    account_recovery: {
      subject: (v) => `Stellen Sie Ihr ${v.app}-Konto wieder her`,
      lead: (v) =>
        `Jemand hat angefordert, Ihr ${v.app}-Konto wiederherzustellen: Mit diesem Link oder Code können Sie einen ` +
        `neuen Passkey registrieren. Der Link ist ${v.linkExpires} gültig.`,
      button: 'Neuen Passkey registrieren',
      codeLead: 'Oder geben Sie diesen Code ein, gültig für',
      after: () =>
        'Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Es ändert sich nichts. Geben Sie diesen Link und ' +
        'diesen Code niemals weiter.',
      sms: (v) =>
        `${v.code} ist Ihr Code zur Wiederherstellung Ihres ${v.app}-Kontos. Gültig für ${v.expires}. Niemals weitergeben.`,
    },
    invitation: {
      subject: (v) => `Sie sind zu ${v.app} eingeladen`,
      lead: (v) =>
        `Für Sie wurde bei ${v.app} ein Konto mit der Adresse ${v.address} angelegt. Wählen Sie Ihr Passwort, um zu ` +
        `beginnen; der Link ist ${v.linkExpires} gültig.`,
      button: 'Mein Passwort wählen',
      after: () => 'Wenn Sie dies nicht erwartet haben, ignorieren Sie diese Nachricht.',
      sms: (v) =>
        `${v.app}: Für Sie wurde ein Konto angelegt. Öffnen Sie den Link in Ihrer E-Mail, um ein Passwort zu wählen.`,
    },
    passkeys_reset: {
      subject: (v) => `Für Ihr ${v.app}-Konto wurde ein neuer Passkey registriert`,
      lead: (v) =>
        `Am ${v.when} wurde Ihr ${v.app}-Konto wiederhergestellt: Ein neuer Passkey wurde registriert, und Ihre ` +
        `anderen Sitzungen wurden abgemeldet.`,
      after: () =>
        'Wenn Sie das waren, ist nichts weiter zu tun. Andernfalls stellen Sie Ihr Konto jetzt erneut wieder her und ' +
        'wenden Sie sich an den Support.',
      sms: (v) =>
        `${v.app}: Ihr Konto wurde mit einem neuen Passkey wiederhergestellt. Nicht Sie? Stellen Sie es jetzt wieder her.`,
    },
    delete_account: {
      subject: (v) => `Ihr Code zum Löschen Ihres ${v.app}-Kontos`,
      lead: (v) =>
        `Jemand möchte Ihr ${v.app}-Konto löschen. Geben Sie den Code unten auf der Kontoseite ein, um es zu bestätigen.`,
      codeLead: 'Ihr Code, gültig für',
      after: () =>
        'Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Nichts wird gelöscht. Teilen Sie den Code nie.',
      sms: (v) => `${v.code} ist Ihr Code zum Löschen Ihres ${v.app}-Kontos. Er läuft in ${v.expires} ab.`,
    },
    account_deletion_scheduled: {
      subject: (v) => `Ihr ${v.app}-Konto wird gelöscht`,
      lead: (v) =>
        `Sie haben die Löschung Ihres ${v.app}-Kontos beantragt: Sie wurden überall abgemeldet, und das Konto und ` +
        `seine Daten werden am ${v.when} gelöscht.`,
      after: () => 'Haben Sie es sich anders überlegt? Melden Sie sich vorher wieder an: Das hebt die Löschung auf.',
      sms: (v) => `${v.app}: Ihr Konto wird am ${v.when} gelöscht. Melden Sie sich vorher an, um es abzubrechen.`,
    },
    account_deleted: {
      subject: (v) => `Ihr ${v.app}-Konto wurde gelöscht`,
      lead: (v) => `Am ${v.when} wurden Ihr ${v.app}-Konto und seine Daten wie gewünscht gelöscht.`,
      after: () => 'Das lässt sich nicht rückgängig machen. Wenn Sie das nicht waren, wenden Sie sich an den Support.',
      sms: (v) => `${v.app}: Ihr Konto wurde wie gewünscht gelöscht.`,
    },
    confirm_consent: {
      subject: (v) => `Bestätigen Sie Ihre Auswahl für ${v.app}`,
      lead: (v) =>
        `Sie haben „${v.address}“ bei ${v.app} zugestimmt. Bestätigen Sie dies mit diesem Link, der einmal und ${v.linkExpires} lang gilt.`,
      button: 'Bestätigen',
      after: () => 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts.',
      sms: (v) => `${v.app}: Öffnen Sie den Link in Ihrer E-Mail, um Ihre Auswahl zu bestätigen.`,
    },
    claim_profile: {
      subject: (v) => `Schließen Sie die Erstellung Ihres ${v.app}-Kontos ab`,
      lead: (v) =>
        `Jemand hat sich bei ${v.app} mit ${v.address} registriert, einer Adresse, die ${v.app} bereits kennt. ` +
        `Öffnen Sie zum Abschluss den Link und geben Sie das bei der Registrierung gewählte Passwort ein; er gilt ${v.linkExpires} lang.`,
      button: 'Kontoerstellung abschließen',
      after: () =>
        'Wenn Sie sich nicht registriert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts, niemand erhält Zugang.',
      sms: (v) => `${v.app}: Öffnen Sie den Link in Ihrer E-Mail, um die Erstellung Ihres Kontos abzuschließen.`,
    },
  },
  codeLineEnd: ':',

  factorNotice: {
    subject: {
      factor_added: (app) => `Ihrem ${app}-Konto wurde ein zweiter Faktor hinzugefügt`,
      factor_removed: (app) => `Aus Ihrem ${app}-Konto wurde ein zweiter Faktor entfernt`,
    },
    factor: {
      email: (m) => `die E-Mail-Adresse ${m}`,
      sms: (m) => `die Telefonnummer ${m}`,
      totp: () => 'eine Authenticator-App',
    },
    what: {
      factor_added: (f, app, when) =>
        `Am ${when} wurde ${f} zur Bestätigung in zwei Schritten Ihres ${app}-Kontos hinzugefügt.`,
      factor_removed: (f, app, when) =>
        `Am ${when} wurde ${f} aus der Bestätigung in zwei Schritten Ihres ${app}-Kontos entfernt.`,
    },
    ifYou:
      'Wenn Sie diese Änderung vorgenommen haben, ist nichts weiter zu tun. Geräte, die Sie als vertrauenswürdig ' +
      'markiert hatten, fragen wieder nach einem Code.',
    ifNot:
      'Andernfalls ist möglicherweise jemand anderes bei Ihrem Konto angemeldet: Ändern Sie jetzt Ihr Passwort, ' +
      'melden Sie Ihre anderen Sitzungen ab und prüfen Sie Ihre zweiten Faktoren.',
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app}: ` : ''}${f} wurde zu Ihrer Bestätigung in zwei Schritten hinzugefügt. Nicht Sie? Ändern ` +
        `Sie Ihr Passwort.`,
      factor_removed: (f, app) =>
        `${app ? `${app}: ` : ''}${f} wurde aus Ihrer Bestätigung in zwei Schritten entfernt. Nicht Sie? Ändern Sie ` +
        `Ihr Passwort.`,
    },
    reset: {
      subject: (app) => `Die Bestätigung in zwei Schritten Ihres ${app}-Kontos wurde zurückgesetzt`,
      what: (app, when) =>
        `Am ${when} hat ein Administrator alle zweiten Faktoren und Passkeys Ihres ${app}-Kontos entfernt, auf Ihren ` +
        'Wunsch oder nach Prüfung Ihrer Identität.',
      ifYou:
        'Melden Sie sich mit Ihrem Passwort an und richten Sie die Bestätigung in zwei Schritten auf Ihrer Kontoseite ' +
        'neu ein.',
      sms: (app) =>
        `${app ? `${app}: ` : ''}Ihre Bestätigung in zwei Schritten wurde zurückgesetzt. Nicht Sie? Kontaktieren Sie den Support.`,
    },
    recoveryCode: {
      subject: (app) => `Ein Wiederherstellungscode wurde für Ihr ${app}-Konto verwendet`,
      what: (app, when, left) =>
        `Am ${when} wurde ein Wiederherstellungscode verwendet, um sich bei Ihrem ${app}-Konto anzumelden. Sie haben ` +
        `noch ${left} Wiederherstellungscodes.`,
      ifYou:
        'Wenn Sie das waren, ist nichts weiter zu tun; erstellen Sie auf Ihrer Kontoseite neue Codes, wenn nur noch ' +
        'wenige übrig sind.',
      sms: (app, left) =>
        `${app ? `${app}: ` : ''}Wiederherstellungscode verwendet (noch ${left}). Nicht Sie? Ändern Sie Ihr Passwort.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `Ihrem ${app}-Konto wurde ein Passkey hinzugefügt`,
        factor_removed: (app) => `Aus Ihrem ${app}-Konto wurde ein Passkey entfernt`,
      },
      what: {
        factor_added: (app, when) =>
          `Am ${when} wurde Ihrem ${app}-Konto ein Passkey hinzugefügt: Mit ihm kann man sich dort anmelden.`,
        factor_removed: (app, when) => `Am ${when} wurde ein Passkey aus Ihrem ${app}-Konto entfernt.`,
      },
      sms: {
        factor_added: (app) =>
          `${app ? `${app}: ` : ''}Ihrem Konto wurde ein Passkey hinzugefügt. Nicht Sie? Ändern Sie jetzt Ihr Passwort.`,
        factor_removed: (app) =>
          `${app ? `${app}: ` : ''}Aus Ihrem Konto wurde ein Passkey entfernt. Nicht Sie? Ändern Sie jetzt Ihr Passwort.`,
      },
    },
  },

  lockNotice: {
    subject: (app) => `Die Anmeldung bei Ihrem ${app}-Konto ist ausgesetzt`,
    what: (app, when, until) =>
      `Am ${when} wurde die Anmeldung mit Passwort bei Ihrem ${app}-Konto nach zu vielen falschen Passwörtern ` +
      `bis ${until} ausgesetzt.`,
    ifYou:
      'Wenn Sie das waren, warten Sie bis dahin oder setzen Sie Ihr Passwort zurück. Andere Anmeldewege ' +
      'funktionieren weiterhin.',
    ifNot:
      'Wenn Sie das nicht waren, versucht möglicherweise jemand, Ihr Passwort zu erraten: Wählen Sie ein neues, ' +
      'einmaliges Passwort und aktivieren Sie die Bestätigung in zwei Schritten.',
    sms: (app, until) =>
      `${app ? `${app}: ` : ''}zu viele falsche Passwörter, Anmeldung bis ${until} ausgesetzt. Nicht Sie? Ändern Sie ` +
      `Ihr Passwort.`,
  },
};
