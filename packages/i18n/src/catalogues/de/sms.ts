import type { Messages } from "../../catalogue.js";

export const sms = {
  login:
    "Ihr Anmeldecode lautet {code}. Er läuft in {minutes, plural, one {# Minute} other {# Minuten}} ab. Geben Sie ihn niemals weiter.",
  recovery:
    "Ihr Code zur Wiederherstellung des Zugangs lautet {code}. Er läuft in {minutes, plural, one {# Minute} other {# Minuten}} ab. Geben Sie ihn niemals weiter.",
  phoneChange:
    "Ihr Code zur Bestätigung dieser Telefonnummer für Ihr Konto lautet {code}. Er läuft in {minutes, plural, one {# Minute} other {# Minuten}} ab. Geben Sie ihn niemals weiter.",
} satisfies Messages<"sms">;
