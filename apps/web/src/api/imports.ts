// Excel import (导入): template download, preview, commit and the import log, through the declared
// endpoints (packages/contracts/src/endpoints/imports.ts). The chosen file travels base64-encoded.
import type { ImportKind } from '@meter/contracts';
import { call, fetchFile } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

type Company = string | number | undefined;
const withCompany = (company: Company) => (company ? { searchCompanyID: company } : {});

export interface ImportFile {
  fileName: string;
  content: string;
}

/** The file's bytes as base64 (read as a data: URL, whose payload is exactly that). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(new Error('无法读取所选文件'));
    r.readAsDataURL(file);
  });
}

export const importApi = {
  template: (kind: ImportKind, company?: Company) => fetchFile(E.imports.template, { params: { kind }, query: withCompany(company) }),
  preview: (kind: ImportKind, body: ImportFile, company?: Company) => call(E.imports.preview, { params: { kind }, body, query: withCompany(company) }),
  commit: (kind: ImportKind, body: ImportFile, company?: Company) => call(E.imports.commit, { params: { kind }, body, query: withCompany(company) }),
  log: (q: { index: number; size: number; kind?: ImportKind }, company?: Company) => call(E.imports.log, { query: { ...q, ...withCompany(company) } }),
};
