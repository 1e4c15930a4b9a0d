import { describe, expect, it } from 'vitest';
import { tenantSelectSql } from '../../../src/services/tenancy/tenant-sql';

const tenant = { clientId: '00000000-0000-4000-8000-000000000001', clientName: 'A', env: 'dev' as const };

describe('tenantSelectSql', () => {
  it('puts the tenant condition of every table, first and joined, before the caller’s own conditions', () => {
    const { sql, params } = tenantSelectSql(tenant, {
      columns: 'p.id, m.market_id, u.external_id',
      from: ['projects', 'p'],
      join: [
        ['markets', 'm', 'm.id = p.market_id'],
        ['end_users', 'u', 'u.id = p.owner_id'],
      ],
      where: 'p.id = ? OR p.id = ?',
      params: ['p-1', 'p-2'],
      orderBy: 'p.id',
      limit: 5,
    });
    expect(sql).toBe(
      'SELECT p.id, m.market_id, u.external_id FROM projects p JOIN markets m ON m.id = p.market_id JOIN end_users u ON u.id = p.owner_id ' +
        'WHERE p.client_id = ? AND p.env = ? AND m.client_id = ? AND u.client_id = ? AND u.env = ? AND (p.id = ? OR p.id = ?) ORDER BY p.id LIMIT ?',
    );
    expect(params).toEqual([tenant.clientId, 'dev', tenant.clientId, tenant.clientId, 'dev', 'p-1', 'p-2', 5]);
  });

  it('scopes a statement without conditions of its own', () => {
    expect(tenantSelectSql(tenant, { columns: 'u.id', from: ['end_users', 'u'] })).toEqual({
      sql: 'SELECT u.id FROM end_users u WHERE u.client_id = ? AND u.env = ?',
      params: [tenant.clientId, 'dev'],
    });
  });

  it('refuses an alias that is not a plain name (it would carry SQL of its own)', () => {
    expect(() => tenantSelectSql(tenant, { columns: 'p.id', from: ['projects', 'p; DROP TABLE projects'] })).toThrow(
      'is not a table alias',
    );
  });
});
