import type { Messages } from "../../catalogue.js";

export const page = {
  "document.title": "Anmelden",
  "document.stepTitle": "{step} – Anmelden",
  "document.companyTitle": "{company} – Anmelden",
  "document.companyStepTitle": "{step} – {company}",
  "document.loading": "Wird geladen…",
  "document.startFailed": "Die Anmeldeseite konnte nicht starten. Bitte laden Sie sie neu.",
  "link.newTab": "(öffnet in einem neuen Tab)",
  "error.unknown": "Etwas ist schiefgelaufen ({code}). Bitte versuchen Sie es erneut.",
  "wait.seconds":
    "{seconds, plural, one {Versuchen Sie es in # Sekunde erneut.} other {Versuchen Sie es in # Sekunden erneut.}}",
  "wait.minutes":
    "{minutes, plural, one {Versuchen Sie es in # Minute erneut.} other {Versuchen Sie es in # Minuten erneut.}}",

  "common.continue": "Weiter",
  "common.signIn": "Anmelden",
  "common.backToSignIn": "Zurück zur Anmeldung",
  "common.forgotPassword": "Passwort vergessen?",
  "common.loginId": "Telefonnummer, E-Mail-Adresse oder Anmeldename",
  "common.usePasskeyInstead": "Stattdessen Passkey verwenden",
  "common.showPassword": "Passwort anzeigen",
  "common.hidePassword": "Passwort verbergen",

  "captcha.legend": "Sicherheitsprüfung",
  "captcha.notRobot": "Ich bin kein Roboter",
  "disclaimers.legend": "Zu akzeptierende Bedingungen",
  "disclaimers.accept": "Ich akzeptiere: {title}",
  "disclaimers.read": "{title} lesen",

  "identify.title": "Anmelden",
  "identify.loginIdMissing":
    "Bitte geben Sie Ihre Telefonnummer, E-Mail-Adresse oder Ihren Anmeldenamen ein.",
  "identify.otherWays": "Oder anmelden mit",
  "identify.provider": "Mit {provider} anmelden",
  "oauth.providerRefused": "Der Anbieter hat Sie nicht angemeldet.",
  "oauth.notStarted":
    "Diese Anmeldung über einen Anbieter wurde nicht auf dieser Seite begonnen. Bitte beginnen Sie erneut.",

  "passkeySignIn.button": "Mit einem Passkey anmelden",
  "passkeySignIn.refused":
    "Der Passkey wurde nicht akzeptiert. Verwenden Sie einen Passkey Ihres Kontos auf dieser Website, oder geben Sie Ihre Anmeldekennung ein.",
  "passkeySignIn.notOffered": "Die Anmeldung mit einem Passkey wird hier nicht angeboten.",
  "passkeyCeremony.spent":
    "Der Passkey wurde nicht akzeptiert. Fahren Sie auf einem anderen Weg fort, oder melden Sie sich erneut an, um es noch einmal mit einem Passkey zu versuchen.",
  "passkeyCeremony.previouslyRegistered":
    "Auf diesem Gerät oder Sicherheitsschlüssel ist bereits ein Passkey Ihres Kontos gespeichert.",
  "passkeyCeremony.otherDevice":
    "Dieses Gerät oder dieser Sicherheitsschlüssel kann keinen Passkey speichern, der nach Ihrer PIN, Ihrem Fingerabdruck oder Ihrem Gesicht fragt. Versuchen Sie es mit einem anderen.",
  "passkeyCeremony.wrongAddress":
    "Passkeys können unter dieser Adresse der Anmeldeseite nicht verwendet werden. Bitte wenden Sie sich an den Support der Website.",
  "passkeyCeremony.cancelled":
    "Es wurde kein Passkey verwendet: Die Anfrage wurde abgebrochen oder ist abgelaufen.",
  "passkeyCeremony.failed": "Der Passkey hat nicht funktioniert. Bitte versuchen Sie es erneut.",

  "password.title": "Passwort eingeben",
  "password.intro": "Anmeldung als {loginId}.",
  "password.label": "Passwort",
  "password.someoneElse": "Als andere Person anmelden",

  "otp.smsTitle": "Code aus der SMS eingeben",
  "otp.smsIntro": "Wir haben einen 6-stelligen Code an {phone} gesendet.",
  "otp.smsLabel": "Code aus der SMS",
  "otp.smsRisk":
    "Ein Code per SMS kann von jemandem abgefangen werden, der Ihre Nummer auf seine SIM-Karte überträgt oder Ihre Nachrichten liest. Eine Authenticator-App ist sicherer: Sie können eine einrichten, sobald Sie angemeldet sind.",
  "otp.appTitle": "Code aus Ihrer Authenticator-App eingeben",
  "otp.appIntro": "Öffnen Sie die App und geben Sie den 6-stelligen Code ein, den sie anzeigt.",
  "otp.appLabel": "Code aus der App",
  "otp.backupCodeTitle": "Backup-Code eingeben",
  "otp.backupCodeIntro":
    "Verwenden Sie einen der Backup-Codes, die Sie gespeichert haben. Jeder funktioniert nur einmal.",
  "otp.backupCodeLabel": "Backup-Code",
  "otp.backupCodeHint": "Zum Beispiel ABCD-EFGH-JKMN.",
  "otp.passkeyTitle": "Passkey verwenden",
  "otp.passkeyIntro":
    "Bestätigen Sie mit Ihrem Passkey, dass Sie es sind: Ihr Gerät fragt nach Ihrer PIN, Ihrem Fingerabdruck oder Ihrem Gesicht.",
  "otp.usePasskey": "Passkey verwenden",
  "otp.sendNewCode": "Neuen Code senden",
  "otp.newCodeSent": "Wir haben einen neuen Code an {phone} gesendet.",
  "otp.newCodeNotYet": "Ein neuer Code kann noch nicht gesendet werden.",
  "otp.useAppInstead": "Stattdessen Code aus der App verwenden",
  "otp.useSmsInstead": "Stattdessen Code per SMS verwenden",
  "otp.useBackupCodeInstead": "Stattdessen Backup-Code verwenden",

  "acceptDisclaimers.title": "Bedingungen akzeptieren",
  "acceptDisclaimers.intro": "Bitte akzeptieren Sie diese Bedingungen, um die Anmeldung abzuschließen.",

  "newPassword.title": "Neues Passwort wählen",
  "newPassword.introRecovery": "Sie haben nachgewiesen, wer Sie sind.",
  "newPassword.introRequired": "Sie müssen ein neues Passwort wählen, bevor Sie fortfahren.",
  "newPassword.label": "Neues Passwort",
  "newPassword.save": "Neues Passwort speichern",
  "newPassword.refused": "Dieses Passwort kann nicht verwendet werden. {rules}",
  "passwordChanged.title": "Ihr Passwort ist geändert",
  "passwordChanged.intro":
    "Melden Sie sich mit Ihrem neuen Passwort an. Überall sonst wurden Sie abgemeldet.",

  "recoveryStart.title": "Zugang wiederherstellen",
  "recoveryStart.intro": "Weisen Sie nach, wer Sie sind, und wählen Sie dann ein neues Passwort.",
  "recoveryStart.methodLegend": "Wie möchten Sie nachweisen, wer Sie sind?",
  "recoveryStart.methodDefault": "Auf dem Weg, den ich eingerichtet habe",
  "recoveryStart.methodPhone": "Mit einem Code per SMS",
  "recoveryStart.methodMail": "Mit einem Link per E-Mail",
  "recoveryStart.methodQuestion": "Mit meiner Sicherheitsfrage",
  "mailSent.title": "Prüfen Sie Ihre E-Mails",
  "mailSent.intro":
    "Wir haben einen Link an {email} gesendet. Öffnen Sie ihn, um ein neues Passwort zu wählen.",
  "question.title": "Sicherheitsfrage beantworten",
  "question.answerLabel": "Ihre Antwort",
  "recoveryLink.title": "Dieser Link kann nicht verwendet werden",
  "recoveryLink.invalid": "Dieser Link ist ungültig oder wurde bereits verwendet.",
  "recoveryLink.expired": "Dieser Link ist abgelaufen.",
  "recoveryLink.incomplete": "Dieser Link ist unvollständig.",
  "recoveryLink.askNew": "Sie können einen neuen Link anfordern.",
  "recoveryLink.recover": "Zugang wiederherstellen",

  "signedIn.title": "Sie sind angemeldet",
  "signedIn.profile": "Ihr Profil: {profile}.",
  "signedIn.signOut": "Abmelden",
  "signedIn.signedOut": "Sie sind abgemeldet.",
  "signedIn.otherSessionsEnded":
    "{count, plural, one {# andere Sitzung wurde beendet.} other {# andere Sitzungen wurden beendet.}}",

  "sessions.heading": "Ihre Sitzungen",
  "sessions.endOthers": "Alle anderen Sitzungen beenden",
  "sessions.device": "{browser} unter {os}",
  "sessions.unknownDevice": "Unbekanntes Gerät",
  "sessions.thisSession": "Diese Sitzung.",
  "sessions.details":
    "Von {address}, angemeldet am {createdAt, date, medium} um {createdAt, time, short}, zuletzt aktiv am {lastSeenAt, date, medium} um {lastSeenAt, time, short}.",
  "sessions.end": "Sitzung beenden",
  "sessions.endLabel": "Sitzung beenden: {device}",
  "sessions.ended": "{count, plural, one {Die Sitzung wurde beendet.} other {# Sitzungen wurden beendet.}}",

  "events.heading": "Letzte Sicherheitsaktivitäten",
  "events.none": "Keine Aktivitäten in letzter Zeit.",
  "events.unavailable":
    "Ihre letzten Aktivitäten können gerade nicht angezeigt werden. Bitte versuchen Sie es später erneut.",
  "events.failed": "Fehlgeschlagen.",
  "events.thisSession": "Diese Sitzung.",
  "events.when": "{time, date, medium}, {time, time, short}.",
  "events.whenFrom": "{time, date, medium}, {time, time, short}, von {address}.",
  "events.loginSucceeded": "Angemeldet",
  "events.loginFailed": "Anmeldung fehlgeschlagen",
  "events.secondFactorFailed": "Zweiter Anmeldeschritt fehlgeschlagen",
  "events.accountLocked": "Konto gesperrt",
  "events.passwordChanged": "Passwort geändert",
  "events.contactChanged":
    "{factor, select, sms_code {Telefonnummer geändert} email_link {E-Mail-Adresse geändert} other {Telefonnummer oder E-Mail-Adresse geändert}}",
  "events.factorEnrolled":
    "{factor, select, password {Passwort hinzugefügt} sms_code {Telefon für Codes hinzugefügt} app_code {Authenticator-App hinzugefügt} backup_code {Backup-Codes hinzugefügt} passkey {Passkey hinzugefügt} recovery_question {Sicherheitsfrage hinzugefügt} other {Anmeldemethode hinzugefügt}}",
  "events.factorRemoved":
    "{factor, select, password {Passwort entfernt} sms_code {Telefon für Codes entfernt} app_code {Authenticator-App entfernt} backup_code {Backup-Codes entfernt} passkey {Passkey entfernt} recovery_question {Sicherheitsfrage entfernt} other {Anmeldemethode entfernt}}",
  "events.recoveryStarted": "Wiederherstellung begonnen",
  "events.recoveryFinished": "Zugang wiederhergestellt",
  "events.sessionRevoked": "Sitzung beendet",
  "events.adminFactorChanged": "Anmeldemethoden von einem Administrator geändert",
  "events.adminUserChanged": "Konto von einem Administrator geändert",
  "events.adminSessionRevoked": "Sitzung von einem Administrator beendet",

  "passkeys.heading": "Passkeys",
  "passkeys.intro":
    "Melden Sie sich mit der PIN, dem Fingerabdruck oder dem Gesicht Ihres Geräts an statt mit Passwort und Code. Ein Passkey funktioniert nur auf dieser Website: Eine nachgeahmte Website kann nichts damit anfangen.",
  "passkeys.none": "Sie haben noch keine Passkeys.",
  "passkeys.unsupported": "Dieser Browser kann keine Passkeys erstellen.",
  "passkeys.nameLabel": "Name des neuen Passkeys",
  "passkeys.nameHint": "Zum Beispiel „Arbeitslaptop“, um ihn in dieser Liste zu erkennen.",
  "passkeys.add": "Passkey hinzufügen",
  "passkeys.synced": "Mit Ihren anderen Geräten synchronisiert.",
  "passkeys.deviceBound": "Auf einem Gerät oder Sicherheitsschlüssel.",
  "passkeys.used":
    "Hinzugefügt am {createdAt, date, medium} um {createdAt, time, short}, zuletzt verwendet am {lastUsedAt, date, medium} um {lastUsedAt, time, short}.",
  "passkeys.unused":
    "Hinzugefügt am {createdAt, date, medium} um {createdAt, time, short}, noch nicht verwendet.",
  "passkeys.cloneSuspected":
    "Er wurde möglicherweise kopiert und kann deshalb nicht mehr zur Anmeldung verwendet werden: Entfernen Sie ihn.",
  "passkeys.rename": "Umbenennen",
  "passkeys.renameLabel": "{name} umbenennen",
  "passkeys.newNameLabel": "Neuer Name für {name}",
  "passkeys.saveName": "Namen speichern",
  "passkeys.cancel": "Abbrechen",
  "passkeys.remove": "Entfernen",
  "passkeys.removeLabel": "{name} entfernen",
  "passkeys.removeQuestion": "„{name}“ entfernen? Sie können sich dann nicht mehr damit anmelden.",
  "passkeys.keep": "Behalten",
  "passkeys.reauthenticate":
    "Zu Ihrer Sicherheit ist für Änderungen an Ihren Passkeys eine kürzliche Anmeldung nötig: Melden Sie sich ab und wieder an.",
  "passkeys.newRefused": "Der neue Passkey wurde nicht akzeptiert. Bitte versuchen Sie es erneut.",
  "passkeys.nameTooLong": "Bitte geben Sie einen Namen mit höchstens {max} Zeichen ein.",
  "passkeys.added": "Ihr Passkey „{name}“ ist hinzugefügt: Melden Sie sich ab jetzt damit an.",
  "passkeys.renamed": "Ihr Passkey „{name}“ heißt jetzt „{newName}“.",
  "passkeys.removed": "Ihr Passkey „{name}“ ist entfernt.",

  "authenticator.heading": "Authenticator-App",
  "authenticator.intro":
    "Melden Sie sich statt mit einer SMS mit einem Code aus einer App an: Eine SMS könnte nutzen, wer Ihre Telefonnummer übernimmt oder Ihre Nachrichten liest.",
  "authenticator.setUp": "Authenticator-App einrichten",
  "authenticator.scan":
    "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App und geben Sie dann den Code ein, den sie anzeigt.",
  "authenticator.qrLabel": "QR-Code für Ihre Authenticator-App",
  "authenticator.openApp": "In einer Authenticator-App auf diesem Gerät öffnen",
  "authenticator.byHand": "Oder geben Sie diesen Schlüssel von Hand in der App ein:",
  "authenticator.codeLabel": "Code aus der App",
  "authenticator.newCodeLabel": "Code aus der neuen App",
  "authenticator.currentCodeLabel": "Code aus Ihrer bisherigen App",
  "authenticator.currentCodeHint":
    "Ein Code der Authenticator-App, mit der Sie sich jetzt anmelden: Sie wird durch die neue ersetzt.",
  "authenticator.confirm": "Bestätigen",
  "authenticator.replaceNotice":
    "Ihr Konto hat bereits eine Authenticator-App. Um sie zu ersetzen, geben Sie auch einen Code aus Ihrer bisherigen App ein.",
  "authenticator.codeWrong": "Der Code ist nicht richtig. Geben Sie den Code ein, den die App jetzt anzeigt.",
  "authenticator.codesWrong":
    "Ein Code ist nicht richtig. Geben Sie die Codes ein, die beide Apps jetzt anzeigen.",
  "authenticator.done":
    "Ihre Authenticator-App ist eingerichtet: Melden Sie sich ab jetzt mit ihren Codes an.",

  "backupCodes.heading": "Backup-Codes",
  "backupCodes.intro":
    "Einmal-Codes für die Anmeldung, wenn Sie Ihren Passkey, Ihre App oder Ihr Telefon nicht verwenden können. Neue Codes ersetzen die bisherigen.",
  "backupCodes.get": "Neue Backup-Codes erhalten",
  "backupCodes.first":
    "Ihre ersten Backup-Codes stehen unten: Mit ihnen können Sie sich an einem Tag anmelden, an dem Sie Ihren Passkey oder Ihre App nicht verwenden können.",
  "backupCodes.saveFirst":
    "Bewahren Sie diese Codes jetzt an einem sicheren Ort auf: Sie werden nur dieses eine Mal angezeigt. Jeder funktioniert nur einmal.",
  "backupCodes.saveNew":
    "Bewahren Sie diese Codes jetzt an einem sicheren Ort auf: Sie werden nur dieses eine Mal angezeigt. Jeder funktioniert nur einmal; Ihre bisherigen Codes funktionieren nicht mehr.",
  "backupCodes.reauthenticate":
    "Zu Ihrer Sicherheit ist für neue Backup-Codes eine kürzliche Anmeldung mit allen Ihren Faktoren nötig: Melden Sie sich ab, melden Sie sich wieder an (mit Ihrem Passkey oder Ihrer App, falls vorhanden) und holen Sie sie dann hier ab.",

  "passwordChange.heading": "Passwort ändern",
  "passwordChange.intro":
    "Ihre anderen Sitzungen werden beendet, sodass jeder, der das alte Passwort kannte, abgemeldet ist. Bleiben Sie hier angemeldet oder melden Sie sich auch hier ab.",
  "passwordChange.currentLabel": "Aktuelles Passwort",
  "passwordChange.currentHint": "Direkt nach der Anmeldung können Sie es leer lassen.",
  "passwordChange.signOutHere": "Auch hier abmelden",
  "passwordChange.submit": "Passwort ändern",
  "passwordChange.reauthenticate":
    "Geben Sie Ihr aktuelles Passwort ein, oder melden Sie sich ab und wieder an, um es ohne zu ändern.",
  "passwordChange.done": "Ihr Passwort wurde geändert.",

  "phoneChange.heading": "Telefonnummer ändern",
  "phoneChange.intro":
    "Codes, Wiederherstellungsnachrichten und Hinweise gehen an Ihr Telefon. Ein Code an die neue Nummer bestätigt sie, und Ihre bisherige Nummer wird über die Änderung informiert.",
  "phoneChange.label": "Neue Telefonnummer",
  "phoneChange.hint": "Zum Beispiel +49 151 12345678.",
  "phoneChange.send": "Code senden",
  "phoneChange.sent": "Wir haben einen 6-stelligen Code an {phone} gesendet. Geben Sie ihn unten ein.",
  "phoneChange.confirm": "Neue Nummer bestätigen",
  "phoneChange.invalid": "Bitte geben Sie eine andere Telefonnummer als Ihre jetzige ein.",
  "phoneChange.done": "Ihre Telefonnummer ist jetzt {phone}.",

  "emailChange.heading": "E-Mail-Adresse ändern",
  "emailChange.intro":
    "Wiederherstellungslinks und Hinweise gehen an Ihre E-Mail-Adresse. Ein Link an die neue Adresse bestätigt sie, und Ihre bisherige Adresse wird über die Änderung informiert.",
  "emailChange.label": "Neue E-Mail-Adresse",
  "emailChange.send": "Link senden",
  "emailChange.sent":
    "Wir haben einen Link an {email} gesendet. Öffnen Sie ihn, um Ihre neue Adresse zu bestätigen.",
  "emailChange.invalid": "Bitte geben Sie eine andere E-Mail-Adresse als Ihre jetzige ein.",
  "emailChange.notOffered":
    "Ihre E-Mail-Adresse kann hier nicht geändert werden. Bitte wenden Sie sich an den Support der Website.",
  "emailLink.title": "Ihre E-Mail-Adresse wurde geändert",
  "emailLink.intro": "Melden Sie sich ab jetzt mit Ihrer neuen Adresse an.",
  "emailLink.askNew": "Melden Sie sich an und fordern Sie einen neuen Link an.",
} satisfies Messages<"page">;
