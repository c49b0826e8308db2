// 教学视频 (/teachingVideo, SPEC §7 Sys_TeachingVideo): the platform's video and text tutorials, shown to
// every account on the help page (/headQuestion). Videos and pictures are Public uploads.
import { teachingVideoResource } from '@meter/contracts';
import { E } from '../../api/endpoints.gen.ts';
import { CrudPage } from '../../components/CrudPage.tsx';

export default function TeachingVideo() {
  return <CrudPage resource={teachingVideoResource} api={E.teachingVideo} modalWidth={640} />;
}
