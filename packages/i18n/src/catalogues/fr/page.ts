import type { Messages } from "../../catalogue.js";

export const page = {
  "document.title": "Connexion",
  "document.stepTitle": "{step} – Connexion",
  "document.companyTitle": "{company} – Connexion",
  "document.companyStepTitle": "{step} – {company}",
  "document.loading": "Chargement…",
  "document.startFailed": "La page de connexion n’a pas pu démarrer. Veuillez la recharger.",
  "link.newTab": "(s’ouvre dans un nouvel onglet)",
  "error.unknown": "Une erreur s’est produite ({code}). Veuillez réessayer.",
  "wait.seconds": "{seconds, plural, one {Réessayez dans # seconde.} other {Réessayez dans # secondes.}}",
  "wait.minutes": "{minutes, plural, one {Réessayez dans # minute.} other {Réessayez dans # minutes.}}",

  "common.continue": "Continuer",
  "common.signIn": "Se connecter",
  "common.backToSignIn": "Retour à la connexion",
  "common.forgotPassword": "Mot de passe oublié\u202f?",
  "common.loginId": "Numéro de téléphone, e-mail ou nom d’utilisateur",
  "common.usePasskeyInstead": "Utiliser plutôt votre clé d’accès",
  "common.showPassword": "Afficher le mot de passe",
  "common.hidePassword": "Masquer le mot de passe",

  "captcha.legend": "Vérification de sécurité",
  "captcha.notRobot": "Je ne suis pas un robot",
  "disclaimers.legend": "Conditions à accepter",
  "disclaimers.accept": "J’accepte\u00a0: {title}",
  "disclaimers.read": "Lire\u00a0: {title}",

  "identify.title": "Connexion",
  "identify.loginIdMissing":
    "Veuillez saisir votre numéro de téléphone, votre adresse e-mail ou votre nom d’utilisateur.",
  "identify.otherWays": "Ou se connecter avec",
  "identify.provider": "Se connecter avec {provider}",
  "oauth.providerRefused": "Le fournisseur n’a pas validé votre connexion.",
  "oauth.notStarted":
    "Cette connexion avec un fournisseur n’a pas été lancée depuis cette page. Veuillez recommencer.",

  "passkeySignIn.button": "Se connecter avec une clé d’accès",
  "passkeySignIn.refused":
    "La clé d’accès n’a pas été acceptée. Utilisez une clé d’accès de votre compte sur ce site, ou saisissez votre identifiant.",
  "passkeySignIn.notOffered": "La connexion avec une clé d’accès n’est pas proposée ici.",
  "passkeyCeremony.spent":
    "La clé d’accès n’a pas été acceptée. Continuez autrement, ou reconnectez-vous pour réessayer avec une clé d’accès.",
  "passkeyCeremony.previouslyRegistered":
    "Cet appareil ou cette clé de sécurité contient déjà une clé d’accès de votre compte.",
  "passkeyCeremony.otherDevice":
    "Cet appareil ou cette clé de sécurité ne peut pas conserver une clé d’accès qui demande votre code PIN, votre empreinte digitale ou votre visage. Essayez-en un autre.",
  "passkeyCeremony.wrongAddress":
    "Les clés d’accès ne peuvent pas être utilisées à cette adresse de la page de connexion. Veuillez prévenir l’assistance du site.",
  "passkeyCeremony.cancelled":
    "Aucune clé d’accès n’a été utilisée\u00a0: la demande a été annulée ou a expiré.",
  "passkeyCeremony.failed": "La clé d’accès n’a pas fonctionné. Veuillez réessayer.",

  "password.title": "Saisissez votre mot de passe",
  "password.intro": "Connexion en tant que {loginId}.",
  "password.label": "Mot de passe",
  "password.someoneElse": "Se connecter avec un autre compte",

  "otp.smsTitle": "Saisissez le code reçu par SMS",
  "otp.smsIntro": "Nous avons envoyé un code à 6 chiffres au {phone}.",
  "otp.smsLabel": "Code reçu par SMS",
  "otp.smsRisk":
    "Un code par SMS peut être intercepté par quelqu’un qui transfère votre numéro sur sa carte SIM ou lit vos messages. Une application d’authentification est plus sûre\u00a0: vous pourrez en configurer une une fois la connexion établie.",
  "otp.appTitle": "Saisissez le code de votre application d’authentification",
  "otp.appIntro": "Ouvrez l’application et saisissez le code à 6 chiffres qu’elle affiche.",
  "otp.appLabel": "Code de l’application",
  "otp.backupCodeTitle": "Saisissez un code de secours",
  "otp.backupCodeIntro":
    "Utilisez l’un des codes de secours que vous avez conservés. Chacun ne fonctionne qu’une seule fois.",
  "otp.backupCodeLabel": "Code de secours",
  "otp.backupCodeHint": "Par exemple ABCD-EFGH-JKMN.",
  "otp.passkeyTitle": "Utilisez votre clé d’accès",
  "otp.passkeyIntro":
    "Confirmez votre identité avec votre clé d’accès\u00a0: votre appareil vous demande votre code PIN, votre empreinte digitale ou votre visage.",
  "otp.usePasskey": "Utiliser votre clé d’accès",
  "otp.sendNewCode": "Envoyer un nouveau code",
  "otp.newCodeSent": "Nous avons envoyé un nouveau code au {phone}.",
  "otp.newCodeNotYet": "Un nouveau code ne peut pas encore être envoyé.",
  "otp.useAppInstead": "Utiliser plutôt un code de l’application",
  "otp.useSmsInstead": "Utiliser plutôt un code reçu par SMS",
  "otp.useBackupCodeInstead": "Utiliser plutôt un code de secours",

  "acceptDisclaimers.title": "Acceptez les conditions",
  "acceptDisclaimers.intro": "Pour terminer la connexion, veuillez accepter ces conditions.",

  "newPassword.title": "Choisissez un nouveau mot de passe",
  "newPassword.introRecovery": "Vous avez prouvé votre identité.",
  "newPassword.introRequired": "Vous devez choisir un nouveau mot de passe avant de continuer.",
  "newPassword.label": "Nouveau mot de passe",
  "newPassword.save": "Enregistrer le nouveau mot de passe",
  "newPassword.refused": "Ce mot de passe ne peut pas être utilisé. {rules}",
  "passwordChanged.title": "Votre mot de passe est modifié",
  "passwordChanged.intro":
    "Connectez-vous avec votre nouveau mot de passe. Toutes vos autres sessions ont pris fin.",

  "recoveryStart.title": "Récupérer l’accès",
  "recoveryStart.intro": "Prouvez votre identité, puis choisissez un nouveau mot de passe.",
  "recoveryStart.methodLegend": "Comment voulez-vous prouver votre identité\u202f?",
  "recoveryStart.methodDefault": "Le moyen que j’ai configuré",
  "recoveryStart.methodPhone": "Un code par SMS",
  "recoveryStart.methodMail": "Un lien par e-mail",
  "recoveryStart.methodQuestion": "Ma question de sécurité",
  "mailSent.title": "Consultez vos e-mails",
  "mailSent.intro": "Nous avons envoyé un lien à {email}. Ouvrez-le pour choisir un nouveau mot de passe.",
  "question.title": "Répondez à votre question de sécurité",
  "question.answerLabel": "Votre réponse",
  "recoveryLink.title": "Ce lien ne peut pas être utilisé",
  "recoveryLink.invalid": "Ce lien n’est pas valide, ou il a déjà été utilisé.",
  "recoveryLink.expired": "Ce lien a expiré.",
  "recoveryLink.incomplete": "Ce lien est incomplet.",
  "recoveryLink.askNew": "Vous pouvez demander un nouveau lien.",
  "recoveryLink.recover": "Récupérer l’accès",

  "signedIn.title": "Connexion réussie",
  "signedIn.profile": "Votre profil\u00a0: {profile}.",
  "signedIn.signOut": "Se déconnecter",
  "signedIn.signedOut": "Déconnexion effectuée.",
  "signedIn.otherSessionsEnded":
    "{count, plural, one {# autre session a pris fin.} other {# autres sessions ont pris fin.}}",

  "sessions.heading": "Vos sessions",
  "sessions.endOthers": "Fermer toutes les autres sessions",
  "sessions.device": "{browser} sous {os}",
  "sessions.unknownDevice": "Appareil inconnu",
  "sessions.thisSession": "Cette session.",
  "sessions.details":
    "Depuis {address}, connexion le {createdAt, date, medium} à {createdAt, time, short}, dernière activité le {lastSeenAt, date, medium} à {lastSeenAt, time, short}.",
  "sessions.end": "Fermer la session",
  "sessions.endLabel": "Fermer la session de {device}",
  "sessions.ended": "{count, plural, =1 {La session a pris fin.} other {# sessions ont pris fin.}}",

  "events.heading": "Activité de sécurité récente",
  "events.none": "Aucune activité récente.",
  "events.unavailable":
    "Votre activité récente ne peut pas être affichée pour le moment. Veuillez réessayer plus tard.",
  "events.failed": "Échec.",
  "events.thisSession": "Cette session.",
  "events.when": "{time, date, medium}, {time, time, short}.",
  "events.whenFrom": "{time, date, medium}, {time, time, short}, depuis {address}.",
  "events.loginSucceeded": "Connexion",
  "events.loginFailed": "Échec de la connexion",
  "events.secondFactorFailed": "Échec de la deuxième étape de connexion",
  "events.accountLocked": "Compte verrouillé",
  "events.passwordChanged": "Mot de passe modifié",
  "events.contactChanged":
    "{factor, select, sms_code {Numéro de téléphone modifié} email_link {Adresse e-mail modifiée} other {Numéro de téléphone ou adresse e-mail modifié}}",
  "events.factorEnrolled":
    "{factor, select, password {Mot de passe ajouté} sms_code {Téléphone pour les codes ajouté} app_code {Application d’authentification ajoutée} backup_code {Codes de secours ajoutés} passkey {Clé d’accès ajoutée} recovery_question {Question de sécurité ajoutée} other {Méthode de connexion ajoutée}}",
  "events.factorRemoved":
    "{factor, select, password {Mot de passe supprimé} sms_code {Téléphone pour les codes supprimé} app_code {Application d’authentification supprimée} backup_code {Codes de secours supprimés} passkey {Clé d’accès supprimée} recovery_question {Question de sécurité supprimée} other {Méthode de connexion supprimée}}",
  "events.recoveryStarted": "Récupération commencée",
  "events.recoveryFinished": "Accès récupéré",
  "events.sessionRevoked": "Session fermée",
  "events.adminFactorChanged": "Méthodes de connexion modifiées par un administrateur",
  "events.adminUserChanged": "Compte modifié par un administrateur",
  "events.adminSessionRevoked": "Session fermée par un administrateur",

  "passkeys.heading": "Clés d’accès",
  "passkeys.intro":
    "Connectez-vous avec le code PIN, l’empreinte digitale ou le visage de votre appareil au lieu d’un mot de passe et d’un code. Une clé d’accès ne fonctionne que sur ce site\u00a0: un site qui l’imite n’en tire rien.",
  "passkeys.none": "Vous n’avez pas encore de clé d’accès.",
  "passkeys.unsupported": "Ce navigateur ne peut pas créer de clés d’accès.",
  "passkeys.nameLabel": "Nom de la nouvelle clé d’accès",
  "passkeys.nameHint": "Par exemple «\u00a0Portable du bureau\u00a0», pour la distinguer dans cette liste.",
  "passkeys.add": "Ajouter une clé d’accès",
  "passkeys.synced": "Synchronisée avec vos autres appareils.",
  "passkeys.deviceBound": "Sur un seul appareil ou une seule clé de sécurité.",
  "passkeys.used":
    "Ajoutée le {createdAt, date, medium} à {createdAt, time, short}, dernière utilisation le {lastUsedAt, date, medium} à {lastUsedAt, time, short}.",
  "passkeys.unused": "Ajoutée le {createdAt, date, medium} à {createdAt, time, short}, pas encore utilisée.",
  "passkeys.cloneSuspected":
    "Elle a peut-être été copiée et ne permet donc plus de se connecter\u00a0: supprimez-la.",
  "passkeys.rename": "Renommer",
  "passkeys.renameLabel": "Renommer {name}",
  "passkeys.newNameLabel": "Nouveau nom pour {name}",
  "passkeys.saveName": "Enregistrer le nom",
  "passkeys.cancel": "Annuler",
  "passkeys.remove": "Supprimer",
  "passkeys.removeLabel": "Supprimer {name}",
  "passkeys.removeQuestion":
    "Supprimer «\u00a0{name}\u00a0»\u202f? Elle ne permettra plus de vous connecter.",
  "passkeys.keep": "La conserver",
  "passkeys.reauthenticate":
    "Pour votre sécurité, la modification de vos clés d’accès nécessite une connexion récente\u00a0: déconnectez-vous puis reconnectez-vous.",
  "passkeys.newRefused": "La nouvelle clé d’accès n’a pas été acceptée. Veuillez réessayer.",
  "passkeys.nameTooLong": "Veuillez saisir un nom de {max} caractères au plus.",
  "passkeys.added":
    "Votre clé d’accès «\u00a0{name}\u00a0» est ajoutée\u00a0: connectez-vous désormais avec elle.",
  "passkeys.renamed": "Votre clé d’accès «\u00a0{name}\u00a0» s’appelle désormais «\u00a0{newName}\u00a0».",
  "passkeys.removed": "Votre clé d’accès «\u00a0{name}\u00a0» est supprimée.",

  "authenticator.heading": "Application d’authentification",
  "authenticator.intro":
    "Connectez-vous avec un code d’une application plutôt que par SMS, que pourrait utiliser quelqu’un qui s’empare de votre numéro de téléphone ou lit vos messages.",
  "authenticator.setUp": "Configurer une application d’authentification",
  "authenticator.scan":
    "Scannez ce code QR avec votre application d’authentification, puis saisissez le code qu’elle affiche.",
  "authenticator.qrLabel": "Code QR pour votre application d’authentification",
  "authenticator.openApp": "Ouvrir dans une application d’authentification sur cet appareil",
  "authenticator.byHand": "Ou saisissez cette clé manuellement dans l’application\u00a0:",
  "authenticator.codeLabel": "Code de l’application",
  "authenticator.newCodeLabel": "Code de la nouvelle application",
  "authenticator.currentCodeLabel": "Code de votre application actuelle",
  "authenticator.currentCodeHint":
    "Un code de l’application d’authentification avec laquelle vous vous connectez aujourd’hui\u00a0: elle est remplacée par la nouvelle.",
  "authenticator.confirm": "Confirmer",
  "authenticator.replaceNotice":
    "Votre compte a déjà une application d’authentification. Pour la remplacer, saisissez aussi un code de votre application actuelle.",
  "authenticator.codeWrong": "Le code est incorrect. Saisissez le code que l’application affiche maintenant.",
  "authenticator.codesWrong":
    "Un code est incorrect. Saisissez les codes que les deux applications affichent maintenant.",
  "authenticator.done":
    "Votre application d’authentification est configurée\u00a0: connectez-vous désormais avec ses codes.",

  "backupCodes.heading": "Codes de secours",
  "backupCodes.intro":
    "Des codes à usage unique pour vous connecter lorsque vous ne pouvez pas utiliser votre clé d’accès, votre application ou votre téléphone. De nouveaux codes remplacent les précédents.",
  "backupCodes.get": "Obtenir de nouveaux codes de secours",
  "backupCodes.first":
    "Vos premiers codes de secours figurent ci-dessous\u00a0: avec eux, vous pourrez vous connecter le jour où vous ne pourrez pas utiliser votre clé d’accès ou votre application.",
  "backupCodes.saveFirst":
    "Conservez ces codes en lieu sûr dès maintenant\u00a0: ils ne sont affichés que cette fois. Chacun ne fonctionne qu’une seule fois.",
  "backupCodes.saveNew":
    "Conservez ces codes en lieu sûr dès maintenant\u00a0: ils ne sont affichés que cette fois. Chacun ne fonctionne qu’une seule fois\u202f; vos anciens codes ne fonctionnent plus.",
  "backupCodes.reauthenticate":
    "Pour votre sécurité, de nouveaux codes de secours nécessitent une connexion récente avec tous vos facteurs\u00a0: déconnectez-vous, reconnectez-vous (avec votre clé d’accès ou votre application, si vous en avez une), puis obtenez-les ici.",

  "passwordChange.heading": "Changer votre mot de passe",
  "passwordChange.intro":
    "Vos autres sessions prennent fin\u00a0: quiconque connaissait l’ancien mot de passe est déconnecté. Restez connecté ici, ou déconnectez-vous ici aussi.",
  "passwordChange.currentLabel": "Mot de passe actuel",
  "passwordChange.currentHint": "Vous pouvez le laisser vide juste après vous être connecté.",
  "passwordChange.signOutHere": "Me déconnecter ici aussi",
  "passwordChange.submit": "Changer le mot de passe",
  "passwordChange.reauthenticate":
    "Saisissez votre mot de passe actuel, ou déconnectez-vous puis reconnectez-vous pour le changer sans lui.",
  "passwordChange.done": "Votre mot de passe est changé.",

  "phoneChange.heading": "Changer votre numéro de téléphone",
  "phoneChange.intro":
    "Les codes, les messages de récupération et les avis sont envoyés à votre téléphone. Un code envoyé au nouveau numéro le confirme, et votre numéro actuel est informé du changement.",
  "phoneChange.label": "Nouveau numéro de téléphone",
  "phoneChange.hint": "Par exemple +33 6 12 34 56 78.",
  "phoneChange.send": "Envoyer un code",
  "phoneChange.sent": "Nous avons envoyé un code à 6 chiffres au {phone}. Saisissez-le ci-dessous.",
  "phoneChange.confirm": "Confirmer le nouveau numéro",
  "phoneChange.invalid": "Veuillez saisir un numéro de téléphone autre que celui que vous avez.",
  "phoneChange.done": "Votre numéro de téléphone est maintenant le {phone}.",

  "emailChange.heading": "Changer votre adresse e-mail",
  "emailChange.intro":
    "Les liens de récupération et les avis sont envoyés à votre adresse e-mail. Un lien envoyé à la nouvelle adresse la confirme, et votre adresse actuelle est informée du changement.",
  "emailChange.label": "Nouvelle adresse e-mail",
  "emailChange.send": "Envoyer un lien",
  "emailChange.sent": "Nous avons envoyé un lien à {email}. Ouvrez-le pour confirmer votre nouvelle adresse.",
  "emailChange.invalid": "Veuillez saisir une adresse e-mail autre que celle que vous avez.",
  "emailChange.notOffered":
    "Votre adresse e-mail ne peut pas être changée ici. Veuillez contacter le support du site.",
  "emailLink.title": "Votre adresse e-mail est changée",
  "emailLink.intro": "Connectez-vous désormais avec votre nouvelle adresse.",
  "emailLink.askNew": "Connectez-vous et demandez un nouveau lien.",
} satisfies Messages<"page">;
