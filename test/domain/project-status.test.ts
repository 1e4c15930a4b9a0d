import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/domain/errors';
import { canMoveProject, moveProject, PROJECT_STATUSES, type ProjectStatus } from '../../src/domain/project-status';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

describe('moveProject: the one check of a project status change', () => {
  it('moves only along the table, stays put without a move, and refuses the rest', () => {
    const project = { id: 'p-test', status: 'editable' as ProjectStatus, updatedAt: new Date(0) };
    expect(moveProject(project, 'editable')).toBe(false);
    expect(project.updatedAt).toEqual(new Date(0));
    expect(moveProject(project, 'ordering', new Date(1))).toBe(true);
    expect(project).toEqual({ id: 'p-test', status: 'ordering', updatedAt: new Date(1) });

    const gone = { id: 'p-gone', status: 'deleted' as ProjectStatus, updatedAt: new Date(0) };
    expect(() => moveProject(gone, 'building')).toThrow(ConflictError);
    expect(() => moveProject(gone, 'building')).toThrow(/p-gone is deleted and cannot become building/);
    expect(gone.status).toBe('deleted');
  });

  it('lets nothing leave deleted and nothing but deletion leave expired', () => {
    for (const to of PROJECT_STATUSES) {
      expect(canMoveProject('deleted', to)).toBe(to === 'deleted');
      expect(canMoveProject('expired', to)).toBe(to === 'expired' || to === 'deleted');
    }
  });
});

describe('an ordered project ordered again with new photos', () => {
  let api: TestService;
  let auth: Record<string, string>;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    auth = serviceHeader((await api.createClient('Reorder shop')).credentials.dev);
    photos = await startPhotoServer({ '/new.jpg': { body: await makePhoto({ width: 1200, height: 900 }) } });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  const projectStatuses = async (projectId: string) =>
    (
      await (
        await api.orm()
      ).em
        .getConnection()
        .execute(
          `SELECT status FROM status_events WHERE subject_type = 'project' AND subject_id = ? ORDER BY sequence`,
          [projectId],
        )
    ).map((row) => String(row.status) as ProjectStatus);

  it('is rebuilt (ordering -> building -> editable), every status change one the table allows', async () => {
    const projectId = await editableProject(api, auth, { userId: 'reorders' });
    // Placed before payment, the orders' fulfilments wait: only print itself and the rebuild move the project.
    const first = { ...printBody('reorder-1', projectId), paymentPending: true };
    expect((await post(api.url, '/v2/print', first, auth)).status).toBe(200);
    const second = { ...printBody('reorder-2', projectId), paymentPending: true } as ReturnType<typeof printBody> & {
      projects: { photos?: string[] }[];
    };
    second.projects[0].photos = [photos.url('/new.jpg')];
    expect((await post(api.url, '/v2/print', second, auth)).status).toBe(200);

    const status = async () =>
      (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status?.project;
    await waitFor(async () => (await status()) === 'editable', 60_000, 'rebuilt');

    const moves = (await projectStatuses(projectId)).filter((s, i, all) => i === 0 || s !== all[i - 1]);
    expect(moves.slice(-4)).toEqual(['editable', 'ordering', 'building', 'editable']);
    for (let i = 1; i < moves.length; i++)
      expect(canMoveProject(moves[i - 1], moves[i]), `${moves[i - 1]} -> ${moves[i]}`).toBe(true);
  });
});
