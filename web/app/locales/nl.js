/** The pages' words in nl (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'Deze fotoboeklink is niet meer geldig.',
};
