import type { Messages } from "../../catalogue.js";

export const mail = {
  "recovery.subject": "Récupérer l’accès à votre compte {company}",
  "recovery.body":
    "Quelqu’un a demandé à récupérer l’accès à votre compte {company}.\nPour définir un nouveau mot de passe, ouvrez ce lien dans {minutes, plural, one {la minute} other {les # minutes}} (il ne fonctionne qu’une seule fois)\u00a0:\n\n{link}\n\nSi vous n’avez rien demandé, ignorez ce message\u00a0: rien ne change.",
  "layout.action.setPassword": "Définir un nouveau mot de passe",
  "layout.linkHint": "Si le bouton ne fonctionne pas, ouvrez ce lien\u00a0:",
  "layout.footer.recovery":
    "Vous recevez cet e-mail parce que quelqu’un a demandé à récupérer l’accès à votre compte {company}.",
  "layout.footer.notice":
    "Vous recevez cet e-mail parce qu’il concerne la sécurité de votre compte {company}.",
  "emailChange.subject": "Confirmez votre nouvelle adresse e-mail pour {company}",
  "emailChange.body":
    "Une personne connectée à votre compte {company} a demandé que cette adresse devienne l’adresse e-mail du compte.\nPour la confirmer, ouvrez ce lien dans {minutes, plural, one {# minute} other {# minutes}} (il ne fonctionne qu’une fois)\u00a0:\n\n{link}\n\nSi vous n’avez rien demandé, ignorez ce message\u00a0: rien ne change.",
  "layout.action.confirmEmail": "Confirmer cette adresse e-mail",
  "layout.footer.emailChange":
    "Vous recevez cet e-mail parce que quelqu’un a demandé que cette adresse devienne l’adresse e-mail d’un compte {company}.",
} satisfies Messages<"mail">;
