import type { Messages } from "../../catalogue.js";

export const errors = {
  "auth.apikey.missing":
    "Cette page de connexion n’est pas configurée correctement (aucune clé d’API). Veuillez prévenir l’assistance du site.",
  "auth.apikey.invalid":
    "Cette page de connexion n’est pas configurée correctement (sa clé d’API n’est pas acceptée). Veuillez prévenir l’assistance du site.",
  "auth.header.missing": "Votre connexion a été interrompue. Veuillez recommencer.",
  "auth.header.invalid": "Votre connexion a été interrompue. Veuillez recommencer.",
  "auth.token.invalid": "Votre connexion n’est plus valide. Veuillez recommencer.",
  "auth.token.expired": "Votre connexion a pris trop de temps et a expiré. Veuillez recommencer.",
  "auth.session.invalid": "Cette étape ne correspond pas à l’état de votre connexion. Veuillez recommencer.",
  "auth.loginid.notfound":
    "Nous ne connaissons pas cet identifiant. Vérifiez le numéro de téléphone, l’adresse e-mail ou le nom d’utilisateur saisi.",
  "auth.user.restricted": "La connexion est restreinte pour ce compte. Veuillez contacter l’assistance.",
  "auth.user.closed": "Ce compte est fermé.",
  "auth.user.denied": "L’accès à ce service est refusé pour ce compte. Veuillez contacter l’assistance.",
  "auth.restricted": "La connexion est bloquée pour le moment.",
  "auth.password.invalid": "Le mot de passe est incorrect.",
  "auth.credentials.invalid": "L’identifiant ou le mot de passe est incorrect.",
  "auth.captcha.missing": "Veuillez confirmer que vous n’êtes pas un robot.",
  "auth.captcha.invalid":
    "La vérification de sécurité a échoué. Veuillez confirmer que vous n’êtes pas un robot.",
  "auth.otp.invalid":
    "Le code est incorrect. Un code ne peut être essayé qu’une seule fois\u00a0: demandez-en un nouveau.",
  "auth.backupcode.invalid": "Le code de secours est incorrect, ou il a déjà été utilisé.",
  "auth.disclaimer.invalid": "Veuillez accepter les conditions pour continuer.",
  "auth.oauth.failed": "La connexion avec le fournisseur n’a pas fonctionné. Veuillez réessayer.",
  "auth.oauth.notfound": "Aucun compte ici n’est lié au compte que vous avez utilisé chez le fournisseur.",
  "auth.controlanswer.invalid":
    "La réponse est incorrecte. Après trois mauvaises réponses, vous devez recommencer.",
  "recovery.method.restricted":
    "Ce moyen de récupérer l’accès n’est pas proposé. Veuillez en choisir un autre.",
  "recovery.phone.notset":
    "Aucun numéro de téléphone n’est enregistré pour ce compte. Veuillez choisir un autre moyen.",
  "recovery.email.notset":
    "Aucune adresse e-mail n’est enregistrée pour ce compte. Veuillez choisir un autre moyen.",
  "recovery.question.notset":
    "Aucune question de sécurité n’est enregistrée pour ce compte. Veuillez choisir un autre moyen.",
  "request.validation.failed": "Une de vos saisies n’est pas valide. Veuillez la vérifier.",
  "auth.session.notfound": "Cette session a déjà pris fin.",
  "auth.reauthentication.required":
    "Pour votre sécurité, déconnectez-vous puis reconnectez-vous pour effectuer cette action.",
  "auth.passkey.invalid": "La clé d’accès n’a pas été acceptée.",
  "auth.passkey.notfound": "Cette clé d’accès n’est plus associée à votre compte.",
  "auth.contact.unavailable":
    "Ce numéro de téléphone ou cette adresse e-mail ne peut pas être utilisé pour votre compte. Veuillez en choisir un autre.",
  "request.ratelimit.exceeded": "Trop de demandes.",
  "request.route.notfound":
    "Cette page n’a pas pu joindre le service de connexion. Veuillez prévenir l’assistance du site.",
  "request.method.notallowed":
    "Cette page n’a pas pu joindre le service de connexion. Veuillez prévenir l’assistance du site.",
  "service.unavailable":
    "Le service de connexion n’est pas disponible pour le moment. Veuillez réessayer dans un instant.",
  "internal.error": "Une erreur s’est produite de notre côté. Veuillez réessayer.",
  "caller.forbidden": "Une erreur s’est produite de notre côté. Veuillez réessayer.",
  "admin.unauthenticated": "Cette action nécessite un administrateur.",
  "resource.notfound": "Ce que vous avez demandé n’existe pas.",
  "resource.exists": "Cela existe déjà.",
} satisfies Messages<"errors">;
