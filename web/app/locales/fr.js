/** The pages' words in fr (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'Ce lien vers le livre photo n’est plus valide.',
};
