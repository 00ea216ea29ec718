import type { Messages } from "../../catalogue.js";

export const mail = {
  "recovery.subject": "Zugang zu Ihrem Konto bei {company} wiederherstellen",
  "recovery.body":
    "Jemand hat angefordert, den Zugang zu Ihrem Konto bei {company} wiederherzustellen.\nUm ein neues Passwort festzulegen, öffnen Sie diesen Link innerhalb von {minutes, plural, one {# Minute} other {# Minuten}} (er funktioniert nur einmal):\n\n{link}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Es ändert sich nichts.",
} satisfies Messages<"mail">;
