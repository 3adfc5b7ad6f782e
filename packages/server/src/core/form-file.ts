// A file part of a multipart/form-data body: what http/body.ts reads from the request and the handlers of
// form operations (artifacts.upload) take.
export interface FormFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}
