import type { Messages } from "../../catalogue.js";

export const sms = {
  login:
    "Votre code de connexion est {code}. Il expire dans {minutes, plural, one {# minute} other {# minutes}}. Ne le partagez jamais.",
  recovery:
    "Votre code de récupération d'accès est {code}. Il expire dans {minutes, plural, one {# minute} other {# minutes}}. Ne le partagez jamais.",
  phoneChange:
    "Votre code pour confirmer ce numéro de téléphone pour votre compte est {code}. Il expire dans {minutes, plural, one {# minute} other {# minutes}}. Ne le partagez jamais.",
} satisfies Messages<"sms">;
