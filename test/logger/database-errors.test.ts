import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';
import { scrubLogLine } from '../../src/logger/redaction';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';

/** What the order carries that is personal, each distinctive enough that it appears in a log only if the log holds it. */
const RECIPIENT = {
  firstName: 'Zenobia',
  lastName: 'Quarterfield',
  telephone: '+49 30 9876543',
  line1: 'Kastanienallee 77',
  line2: 'Hinterhaus links',
  postcode: '10435',
  company: 'Zebrafish Bindery GmbH',
  reference: 'pay-ref-7Q3XK9WV',
};

/**
 * A failed order insert logs no value of the order (issue 39: the whole statement with the
 * recipient's name, phone, street, company and payment reference was in the log line). The
 * failure is forced by a trigger in this test's own database that refuses every order row the way
 * a check constraint does, quoting the row in its detail as PostgreSQL does.
 */
describe('a database error in the logs', () => {
  const lines: string[] = [];
  let api: TestService;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    api = await startTestService({ LOG_LEVEL: 'debug' }, undefined, createLogger('debug', sink));
  });
  afterAll(() => api?.stop());

  it('keeps what failed and drops every value of the row: name, phone, street, company, payment reference', async () => {
    const shop = await api.createClient('Shop whose order fails');
    const auth = serviceHeader(shop.credentials.dev);
    const projectId = await editableProject(api, auth, { userId: 'someone' });

    const db = new pg.Client({ connectionString: api.databaseUrl });
    await db.connect();
    try {
      await db.query(`
        CREATE FUNCTION refuse_orders() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = 'new row for relation "orders" violates check constraint "test_refusal"',
            DETAIL = format('Failing row contains %s.', NEW);
        END $$;
        CREATE TRIGGER refuse_orders BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION refuse_orders();`);
    } finally {
      await db.end();
    }

    const body = printBody(`order-${crypto.randomUUID()}`, projectId);
    const { reference, ...person } = RECIPIENT;
    Object.assign(body.payment, { reference });
    body.user = {
      firstName: person.firstName,
      lastName: person.lastName,
      telephone: person.telephone,
      address: {
        line1: person.line1,
        line2: person.line2,
        postcode: person.postcode,
        city: 'Berlin',
        state: 'Berlin',
        company: person.company,
        countryIso2: 'DE',
      } as typeof body.user.address,
    };
    const printed = await post(api.url, '/v2/print', body, auth);
    expect(printed.status).toBe(500);

    const log = lines.join('\n');
    // The failure itself is logged, with what an operator needs: the constraint, the code, the statement's shape.
    const failure = lines.map((line) => JSON.parse(line)).find((line) => line.level >= 50 && line.err);
    expect(failure?.err.message).toContain('violates check constraint "test_refusal"');
    expect(failure?.err.message).toMatch(/insert into "orders"/);
    expect(failure?.err.code).toBe('23514');
    for (const value of Object.values(RECIPIENT)) expect(log, value).not.toContain(value);
    // And not in a form JSON escaping or SQL quoting would change.
    expect(log).not.toMatch(/Zenobia|Quarterfield|9876543|Kastanienallee|Zebrafish|7Q3XK9WV/);
  });

  it("scrubs a statement's literals and a quoted row from any line, leaving the JSON whole", () => {
    const line = JSON.stringify({
      msg: `insert into "orders" ("first_name", "shipping_address") values ('O''Neil', '{"line1":"Elm St 5 - 7"}') - duplicate key value violates unique constraint "orders_pkey"`,
      detail: 'Key (client_id, order_id)=(c-1, Ada (Lovelace)) already exists.',
      note: "the shop's own words stay",
    });
    const scrubbed = JSON.parse(scrubLogLine(line));
    expect(scrubbed.msg).toBe(
      `insert into "orders" ("first_name", "shipping_address") values ('[redacted]', '[redacted]') - duplicate key value violates unique constraint "orders_pkey"`,
    );
    expect(scrubbed.detail).toBe('Key (client_id, order_id)=([redacted]) already exists.');
    expect(scrubbed.note).toBe("the shop's own words stay");
  });
});
