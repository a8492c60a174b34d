// record.js: films a tab for /record in the offscreen document. The
// worker forwards DevTools' screencast frames (JPEG, base64); each is drawn
// on a canvas whose stream a MediaRecorder encodes as WebM. The canvas
// takes the first frame's size; later frames are scaled into it, since a
// WebM track keeps one size. The screencast sends a frame only when the
// page changes, so the canvas is also captured on a steady tick: the film
// runs at the run's own pace, and the encoder, which needs a stream of
// frames to produce anything, gets one.

const films = new Map(); // tabId -> film
const tickMs = 200; // five frames a second while the page is still
const minFilmMs = 1000; // a shorter film may come out empty

function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function mimeType() {
  for (const t of ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"]) {
    if (MediaRecorder.isTypeSupported(t)) return t;
  }
  throw new Error("this browser cannot record WebM video");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function drawFrame(film, data) {
  const image = await createImageBitmap(new Blob([bytesOf(data)], { type: "image/jpeg" }));
  if (!film.recorder) {
    // Even sides: the VP8/VP9 encoders want them.
    film.canvas.width = Math.max(2, image.width - (image.width % 2));
    film.canvas.height = Math.max(2, image.height - (image.height % 2));
  }
  film.ctx.drawImage(image, 0, 0, film.canvas.width, film.canvas.height);
  image.close();
  if (!film.recorder) {
    const stream = film.canvas.captureStream(0);
    film.track = stream.getVideoTracks()[0];
    film.recorder = new MediaRecorder(stream, { mimeType: mimeType(), videoBitsPerSecond: 2_500_000 });
    film.recorder.ondataavailable = (e) => e.data.size && film.chunks.push(e.data);
    film.stopped = new Promise((resolve) => {
      film.recorder.onstop = resolve;
    });
    film.recorder.start(minFilmMs);
    film.began = Date.now();
    film.tick = setInterval(() => film.track.requestFrame(), tickMs);
  }
  film.track.requestFrame();
  film.frames++;
}

export async function recording({ op, tabId, data }) {
  let film = films.get(tabId);
  switch (op) {
    case "start":
      if (!film) {
        const canvas = document.createElement("canvas");
        film = { canvas, ctx: canvas.getContext("2d"), chunks: [], frames: 0, drawing: Promise.resolve(), url: "" };
        films.set(tabId, film);
      }
      return { ok: true };
    case "frame":
      if (film && !film.ending) film.drawing = film.drawing.then(() => drawFrame(film, data)).catch(() => {});
      return { ok: true };
    case "stop": {
      if (!film) throw new Error("this tab is not being recorded");
      film.ending = true;
      await film.drawing;
      if (!film.recorder) throw new Error("the tab showed no frame to record");
      const short = minFilmMs - (Date.now() - film.began);
      if (short > 0) await sleep(short);
      clearInterval(film.tick);
      film.track.requestFrame();
      film.recorder.stop();
      await film.stopped;
      const blob = new Blob(film.chunks, { type: "video/webm" });
      if (!blob.size) throw new Error(`no video was encoded from ${film.frames} frames`);
      film.url = URL.createObjectURL(blob);
      return { ok: true, url: film.url, bytes: blob.size, frames: film.frames };
    }
    case "release":
      if (film) {
        clearInterval(film.tick);
        if (film.url) URL.revokeObjectURL(film.url);
        film.track?.stop();
        films.delete(tabId);
      }
      return { ok: true };
    default:
      throw new Error(`unknown recording step ${op}`);
  }
}
