import type { Messages } from "../../catalogue.js";

export const errors = {
  "auth.apikey.missing":
    "Diese Anmeldeseite ist nicht richtig eingerichtet (kein API-Schlüssel). Bitte wenden Sie sich an den Support der Website.",
  "auth.apikey.invalid":
    "Diese Anmeldeseite ist nicht richtig eingerichtet (ihr API-Schlüssel wird nicht akzeptiert). Bitte wenden Sie sich an den Support der Website.",
  "auth.header.missing": "Ihre Anmeldung wurde unterbrochen. Bitte beginnen Sie erneut.",
  "auth.header.invalid": "Ihre Anmeldung wurde unterbrochen. Bitte beginnen Sie erneut.",
  "auth.token.invalid": "Ihre Anmeldung ist nicht mehr gültig. Bitte beginnen Sie erneut.",
  "auth.token.expired": "Ihre Anmeldung hat zu lange gedauert und ist abgelaufen. Bitte beginnen Sie erneut.",
  "auth.session.invalid": "Dieser Schritt passt nicht zum Stand Ihrer Anmeldung. Bitte beginnen Sie erneut.",
  "auth.loginid.notfound":
    "Diese Anmeldekennung kennen wir nicht. Prüfen Sie die eingegebene Telefonnummer, E-Mail-Adresse oder den Anmeldenamen.",
  "auth.user.restricted":
    "Die Anmeldung ist für dieses Konto eingeschränkt. Bitte wenden Sie sich an den Support.",
  "auth.user.closed": "Dieses Konto ist geschlossen.",
  "auth.user.denied":
    "Der Zugang zu diesem Dienst ist für dieses Konto gesperrt. Bitte wenden Sie sich an den Support.",
  "auth.restricted": "Die Anmeldung ist vorübergehend gesperrt.",
  "auth.password.invalid": "Das Passwort ist nicht richtig.",
  "auth.credentials.invalid": "Die Anmeldekennung oder das Passwort ist nicht richtig.",
  "auth.captcha.missing": "Bitte bestätigen Sie, dass Sie kein Roboter sind.",
  "auth.captcha.invalid":
    "Die Sicherheitsprüfung ist fehlgeschlagen. Bitte bestätigen Sie, dass Sie kein Roboter sind.",
  "auth.otp.invalid":
    "Der Code ist nicht richtig. Jeder Code kann nur einmal versucht werden: Fordern Sie einen neuen Code an.",
  "auth.backupcode.invalid": "Der Backup-Code ist nicht richtig oder wurde bereits verwendet.",
  "auth.disclaimer.invalid": "Bitte akzeptieren Sie die Bedingungen, um fortzufahren.",
  "auth.oauth.failed":
    "Die Anmeldung über den Anbieter hat nicht funktioniert. Bitte versuchen Sie es erneut.",
  "auth.oauth.notfound":
    "Mit dem Konto, das Sie beim Anbieter verwendet haben, ist hier kein Konto verknüpft.",
  "auth.controlanswer.invalid":
    "Die Antwort ist nicht richtig. Nach drei falschen Antworten müssen Sie von vorn beginnen.",
  "recovery.method.restricted":
    "Dieser Weg zur Wiederherstellung des Zugangs wird nicht angeboten. Bitte wählen Sie einen anderen.",
  "recovery.phone.notset":
    "Für dieses Konto ist keine Telefonnummer hinterlegt. Bitte wählen Sie einen anderen Weg.",
  "recovery.email.notset":
    "Für dieses Konto ist keine E-Mail-Adresse hinterlegt. Bitte wählen Sie einen anderen Weg.",
  "recovery.question.notset":
    "Für dieses Konto ist keine Sicherheitsfrage hinterlegt. Bitte wählen Sie einen anderen Weg.",
  "request.validation.failed": "Eine Ihrer Eingaben ist ungültig. Bitte prüfen Sie sie.",
  "auth.session.notfound": "Diese Sitzung ist bereits beendet.",
  "auth.reauthentication.required": "Melden Sie sich zu Ihrer Sicherheit ab und wieder an, um dies zu tun.",
  "auth.passkey.invalid": "Der Passkey wurde nicht akzeptiert.",
  "auth.passkey.notfound": "Dieser Passkey gehört nicht mehr zu Ihrem Konto.",
  "auth.contact.unavailable":
    "Diese Telefonnummer oder E-Mail-Adresse kann für Ihr Konto nicht verwendet werden. Bitte wählen Sie eine andere.",
  "request.ratelimit.exceeded": "Zu viele Anfragen.",
  "request.route.notfound":
    "Diese Seite konnte den Anmeldedienst nicht erreichen. Bitte wenden Sie sich an den Support der Website.",
  "request.method.notallowed":
    "Diese Seite konnte den Anmeldedienst nicht erreichen. Bitte wenden Sie sich an den Support der Website.",
  "service.unavailable":
    "Der Anmeldedienst ist gerade nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.",
  "internal.error": "Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.",
  "caller.forbidden": "Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.",
  "admin.unauthenticated": "Dafür ist ein Administrator nötig.",
  "resource.notfound": "Das Angefragte existiert nicht.",
  "resource.exists": "Das existiert bereits.",
} satisfies Messages<"errors">;
