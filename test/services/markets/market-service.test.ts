import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post } from '../../support/http';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

const PATH = '/api/v2/misc/get-market.php';

describe('POST /api/v2/misc/get-market.php', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: { env: string; key: string };

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient('Market shop');
    auth = { env: 'dev', key: client.credentials.dev.apiKey };
  });
  afterAll(() => api?.stop());

  it('lists every market with currency and shipsWithin, and no suggestion without coordinates', async () => {
    const { status, body } = await post(api.url, PATH, auth);
    expect(status).toBe(200);
    expect(body.suggested).toBeUndefined();
    expect(body.results.map((m: any) => m.marketId)).toEqual([0, 1, 2, 3, 4]);
    const japan = body.results.find((m: any) => m.marketId === 3);
    expect(japan).toMatchObject({ isoCode2: 'JP', currency: 'JPY', storeName: 'Japan' });
    expect(japan.shipsWithin.map((a: any) => a.isoCode2)).toEqual(expect.arrayContaining(['JP', 'AS']));
  });

  it('translates names, falling back to English for a language the catalogue lacks', async () => {
    const german = await post(api.url, PATH, { ...auth, language: 'de-DE' });
    const italian = await post(api.url, PATH, { ...auth, language: 'it' });
    expect(german.body.results[1].storeName).toBe('Vereinigtes Königreich');
    expect(italian.body.results[1].storeName).toBe('United Kingdom');
  });

  it.each([
    ['London', 51.5074, -0.1278, 1], // GB is named by market 1
    ['Dublin', 53.3498, -6.2603, 1], // IE is named by market 1, though it is in Europe
    ['Paris', 48.8566, 2.3522, 0], // FR only by continent EU
    ['Zurich', 47.3769, 8.5417, 0], // CH named explicitly by market 0
    ['Toronto', 43.6532, -79.3832, 2], // CA named by market 2
    ['Mexico City', 19.4326, -99.1332, 2], // MX only by continent NA
    ['Tokyo', 35.6762, 139.6503, 3],
    ['Seoul', 37.5665, 126.978, 3], // KR only by continent AS
    ['Sydney', -33.8688, 151.2093, 4],
    ['Nairobi', -1.2921, 36.8219, 0], // Africa: no market ships there, default market
    ['mid-Atlantic', 30, -40, 0], // no country at all
  ])('suggests the market for %s', async (_place, latitude, longitude, marketId) => {
    const { status, body } = await post(api.url, PATH, { ...auth, latitude, longitude });
    expect(status).toBe(200);
    expect(body.suggested.marketId).toBe(marketId);
    expect(body.results).toHaveLength(5);
  });

  it.each([
    ['latitude', { latitude: 10 }],
    ['longitude', { longitude: 10 }],
  ])('answers the markets without a suggestion when only %s is given (spec 4.11)', async (_only, coordinate) => {
    const { status, body } = await post(api.url, PATH, { ...auth, ...coordinate });
    expect(status).toBe(200);
    expect(body.results).toHaveLength(5);
    expect(body).not.toHaveProperty('suggested');
  });

  it('rejects coordinates outside the globe, naming the field', async () => {
    const { status, body } = await post(api.url, PATH, { ...auth, latitude: 91, longitude: 0 });
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors[0].path).toBe('latitude');
  });
});
