import type { FastifyInstance } from 'fastify';
import { API, teachingVideoResource } from '@meter/contracts';
import { registerCrud } from '../../http/crud.ts';
import { teachingVideos } from '../../db/schema/index.ts';
import { assertFiles } from '../files/index.ts';

// 教学视频 (Sys_TeachingVideo, /teachingVideo): the platform's tutorials, read by everyone on /headQuestion.

export default function helpRoutes(app: FastifyInstance) {
  registerCrud(app, {
    def: teachingVideoResource,
    endpoints: API.teachingVideo,
    table: teachingVideos,
    tenancy: 'platform',
    beforeWrite: async (tx, _ctx, v) => {
      // the keys must be files uploaded with a Public token, of the right category
      await assertFiles(tx, (v.video as string[] | undefined) ?? [], 'Public', 'video');
      await assertFiles(tx, (v.images as string[] | undefined) ?? [], 'Public', 'image');
    },
    label: (row) => `教学视频 ${String(row.title ?? row.id)}`,
  });
}
