/** The pages' words in en (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'This photobook link is not valid any more.',
};
