import { createClient } from 'graphql-ws';

/**
 * A small GraphQL client for the pages: queries and mutations over fetch, subscriptions over
 * graphql-ws on the same path. `headers` authenticate HTTP requests, `connectionParams` the socket.
 * A socket closed with one of `finalCloseCodes` is not opened again (its credential ended); the
 * subscription's `onError` hears the close event.
 */
export function graphqlClient({ headers, connectionParams, finalCloseCodes = [] }) {
  const httpUrl = new URL('./graphql', location.href).toString();
  let socket;

  async function request(query, variables = {}) {
    const response = await fetch(httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const body = await response.json().catch(() => ({ errors: [{ message: `HTTP ${response.status}` }] }));
    if (body.errors?.length) {
      const error = new Error(body.errors.map((e) => e.message).join('; '));
      error.code = body.errors[0].extensions?.code;
      throw error;
    }
    return body.data;
  }

  function subscribe(query, variables, onData, onError = () => {}) {
    socket ??= createClient({
      url: httpUrl.replace(/^http/, 'ws'),
      connectionParams,
      retryAttempts: 20,
      lazy: true,
      shouldRetry: (event) => !finalCloseCodes.includes(event?.code),
    });
    return socket.subscribe(
      { query, variables },
      { next: (message) => message.data && onData(message.data), error: onError, complete: () => {} },
    );
  }

  return { request, subscribe };
}
