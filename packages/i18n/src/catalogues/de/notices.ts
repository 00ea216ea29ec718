import type { Messages } from "../../catalogue.js";

export const notices = {
  "password_changed.subject": "Ihr Passwort bei {company} wurde geändert",
  "password_changed.body":
    "Das Passwort Ihres Kontos bei {company} wurde am {time, date, long} um {time, time, ::jmmz} geändert.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "password_changed.sms":
    "{company}: Ihr Passwort wurde am {time, date, medium} um {time, time, ::jmmz} geändert. Nicht Sie? Starten Sie die Wiederherstellung des Zugangs oder wenden Sie sich an Ihren Administrator.",
  "recovery_started.subject": "Wiederherstellung des Zugangs zu Ihrem Konto bei {company} begonnen",
  "recovery_started.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurde eine Wiederherstellung des Zugangs zu Ihrem Konto bei {company} begonnen.\n\nFalls Sie das nicht waren: Ihr Passwort bleibt, wie es ist, solange die Wiederherstellung nicht abgeschlossen wird; wenden Sie sich an Ihren Administrator.",
  "recovery_started.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurde eine Wiederherstellung des Zugangs zu Ihrem Konto begonnen. Nicht Sie? Wenden Sie sich an Ihren Administrator.",
  "recovery_completed.subject": "Der Zugang zu Ihrem Konto bei {company} wurde wiederhergestellt",
  "recovery_completed.body":
    "Der Zugang zu Ihrem Konto bei {company} wurde am {time, date, long} um {time, time, ::jmmz} wiederhergestellt: Ein neues Passwort wurde festgelegt, und alle Sitzungen des Kontos wurden beendet.\n\nFalls Sie das nicht waren, wenden Sie sich sofort an Ihren Administrator.",
  "recovery_completed.sms":
    "{company}: Der Zugang zu Ihrem Konto wurde am {time, date, medium} um {time, time, ::jmmz} mit einem neuen Passwort wiederhergestellt. Nicht Sie? Wenden Sie sich sofort an Ihren Administrator.",
  "backup_codes_issued.subject": "Neue Backup-Codes für Ihr Konto bei {company}",
  "backup_codes_issued.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurden neue Backup-Codes für Ihr Konto bei {company} ausgestellt; alle früher ausgestellten Codes funktionieren nicht mehr.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "backup_codes_issued.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurden neue Backup-Codes für Ihr Konto ausgestellt. Nicht Sie? Wenden Sie sich an Ihren Administrator.",
  "locked_out.subject": "Ihr Konto bei {company} ist gesperrt",
  "locked_out.body":
    "Ihr Konto bei {company} wurde am {time, date, long} um {time, time, ::jmmz} nach zu vielen fehlgeschlagenen Anmeldeversuchen gesperrt. Es wird nach einer Weile von selbst entsperrt; nach sehr vielen fehlgeschlagenen Versuchen in Folge erst, wenn Sie den Zugang wiederherstellen.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "locked_out.sms":
    "{company}: Ihr Konto wurde am {time, date, medium} um {time, time, ::jmmz} nach fehlgeschlagenen Anmeldeversuchen gesperrt. Nicht Sie? Starten Sie die Wiederherstellung des Zugangs oder wenden Sie sich an Ihren Administrator.",
  "authenticator_app_added.subject": "Für Ihr Konto bei {company} wurde eine Authenticator-App eingerichtet",
  "authenticator_app_added.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurde eine Authenticator-App zum zweiten Faktor Ihres Kontos bei {company}; bei der Anmeldung wird jetzt ihr Code statt eines Codes per SMS abgefragt.\n\nFalls Sie das nicht waren, wenden Sie sich sofort an Ihren Administrator, der die App entfernen kann.",
  "authenticator_app_added.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurde für Ihr Konto eine Authenticator-App eingerichtet. Nicht Sie? Wenden Sie sich sofort an Ihren Administrator.",
  "authenticator_app_removed.subject": "Die Authenticator-App Ihres Kontos bei {company} wurde entfernt",
  "authenticator_app_removed.body":
    "Ihr Administrator hat am {time, date, long} um {time, time, ::jmmz} die Authenticator-App Ihres Kontos bei {company} entfernt, und alle Sitzungen des Kontos wurden beendet.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "authenticator_app_removed.sms":
    "{company}: Die Authenticator-App Ihres Kontos wurde am {time, date, medium} um {time, time, ::jmmz} entfernt. Nicht Sie? Wenden Sie sich an Ihren Administrator.",
  "passkey_added.subject": "Ihrem Konto bei {company} wurde ein Passkey hinzugefügt",
  "passkey_added.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurde Ihrem Konto bei {company} ein Passkey hinzugefügt; mit ihm kann man sich jetzt anmelden.\n\nFalls Sie das nicht waren, wenden Sie sich sofort an Ihren Administrator, der den Passkey entfernen kann.",
  "passkey_added.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurde Ihrem Konto ein Passkey hinzugefügt. Nicht Sie? Wenden Sie sich sofort an Ihren Administrator.",
  "passkey_renamed.subject": "Ein Passkey Ihres Kontos bei {company} wurde umbenannt",
  "passkey_renamed.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurde einer der Passkeys Ihres Kontos bei {company} umbenannt.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "passkey_renamed.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurde ein Passkey Ihres Kontos umbenannt. Nicht Sie? Wenden Sie sich an Ihren Administrator.",
  "passkey_removed.subject": "Ein Passkey wurde aus Ihrem Konto bei {company} entfernt",
  "passkey_removed.body":
    "Am {time, date, long} um {time, time, ::jmmz} wurde ein Passkey aus Ihrem Konto bei {company} entfernt; mit ihm kann man sich nicht mehr anmelden.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich an Ihren Administrator.",
  "passkey_removed.sms":
    "{company}: Am {time, date, medium} um {time, time, ::jmmz} wurde ein Passkey aus Ihrem Konto entfernt. Nicht Sie? Wenden Sie sich an Ihren Administrator.",
  "passkey_clone_suspected.subject": "Ein Passkey Ihres Kontos bei {company} wurde möglicherweise kopiert",
  "passkey_clone_suspected.body":
    "Am {time, date, long} um {time, time, ::jmmz} hat sich ein Passkey Ihres Kontos bei {company} mit einem Zähler angemeldet, der nicht gestiegen ist, wie es bei einem kopierten Schlüssel vorkommt. Der Passkey wird ab jetzt abgelehnt; melden Sie sich auf andere Weise an und bitten Sie Ihren Administrator, ihn zu entfernen.\n\nFalls Sie sich zu dieser Zeit nicht anmelden wollten, wenden Sie sich sofort an Ihren Administrator.",
  "passkey_clone_suspected.sms":
    "{company}: Ein Passkey Ihres Kontos wurde möglicherweise kopiert ({time, date, medium}, {time, time, ::jmmz}) und wird ab jetzt abgelehnt. Wenden Sie sich an Ihren Administrator.",
  "phone_changed.subject": "Die Telefonnummer Ihres Kontos bei {company} wurde geändert",
  "phone_changed.body":
    "Die Telefonnummer Ihres Kontos bei {company} wurde am {time, date, long} um {time, time, ::jmmz} geändert; Codes und Nachrichten zur Wiederherstellung gehen jetzt an die neue Nummer.\n\nFalls Sie das nicht waren, starten Sie die Wiederherstellung des Zugangs auf der Anmeldeseite von {company} oder wenden Sie sich sofort an Ihren Administrator.",
  "phone_changed.sms":
    "{company}: Die Telefonnummer Ihres Kontos wurde am {time, date, medium} um {time, time, ::jmmz} geändert; diese Nummer erhält keine Codes mehr. Nicht Sie? Wenden Sie sich sofort an Ihren Administrator.",
  "email_changed.subject": "Die E-Mail-Adresse Ihres Kontos bei {company} wurde geändert",
  "email_changed.body":
    "Die E-Mail-Adresse Ihres Kontos bei {company} wurde am {time, date, long} um {time, time, ::jmmz} geändert; Nachrichten zu Ihrem Konto gehen jetzt an die neue Adresse, nicht mehr an diese.\n\nFalls Sie das nicht waren, wenden Sie sich sofort an Ihren Administrator.",
  "email_changed.sms":
    "{company}: Die E-Mail-Adresse Ihres Kontos wurde am {time, date, medium} um {time, time, ::jmmz} geändert. Nicht Sie? Wenden Sie sich sofort an Ihren Administrator.",
  "new_device.subject": "Neue Anmeldung bei Ihrem Konto bei {company}",
  "new_device.body":
    "Bei Ihrem Konto bei {company} hat sich am {time, date, long} um {time, time, ::jmmz} jemand von {device} angemeldet, einem Gerät oder Netz, von dem es zuletzt nicht genutzt wurde.\n\nWaren Sie das, ist nichts zu tun. Falls nicht, beenden Sie diese Sitzung in der Liste Ihrer Sitzungen auf der Anmeldeseite von {company}, ändern Sie Ihr Passwort und wenden Sie sich an Ihren Administrator.",
  "new_device.sms":
    "{company}: Neue Anmeldung von {device} am {time, date, medium} um {time, time, ::jmmz}. Nicht Sie? Sitzung beenden, Passwort ändern, Administrator informieren.",
} satisfies Messages<"notices">;
