import type { Messages } from "../../catalogue.js";

export const mail = {
  "recovery.subject": "Zugang zu Ihrem Konto bei {company} wiederherstellen",
  "recovery.body":
    "Jemand hat angefordert, den Zugang zu Ihrem Konto bei {company} wiederherzustellen.\nUm ein neues Passwort festzulegen, öffnen Sie diesen Link innerhalb von {minutes, plural, one {# Minute} other {# Minuten}} (er funktioniert nur einmal):\n\n{link}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts.",
  "layout.action.setPassword": "Neues Passwort festlegen",
  "layout.linkHint": "Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:",
  "layout.footer.recovery":
    "Sie erhalten diese E-Mail, weil jemand angefordert hat, den Zugang zu Ihrem Konto bei {company} wiederherzustellen.",
  "layout.footer.notice":
    "Sie erhalten diese E-Mail, weil sie die Sicherheit Ihres Kontos bei {company} betrifft.",
  "emailChange.subject": "Bestätigen Sie Ihre neue E-Mail-Adresse für {company}",
  "emailChange.body":
    "Jemand, der bei Ihrem Konto bei {company} angemeldet ist, möchte diese Adresse zur E-Mail-Adresse des Kontos machen.\nÖffnen Sie zur Bestätigung diesen Link innerhalb von {minutes, plural, one {# Minute} other {# Minuten}} (er funktioniert einmal):\n\n{link}\n\nFalls Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts.",
  "layout.action.confirmEmail": "Diese E-Mail-Adresse bestätigen",
  "layout.footer.emailChange":
    "Sie erhalten diese E-Mail, weil jemand diese Adresse zur E-Mail-Adresse eines Kontos bei {company} machen möchte.",
} satisfies Messages<"mail">;
