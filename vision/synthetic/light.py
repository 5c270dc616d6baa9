"""Light and optics of a rendered frame: exposure, gradients, a lamp, white balance,
glare, blur, noise and JPEG.

Named conditions (:data:`LIGHT_CONDITIONS`) are what the benches sweep: plain room
light, a lamp's strong directional falloff, warm (tungsten) and cold (daylight LED)
white balance, a dim room, and the kit printed on a black-and-white printer (plain
light on a grey-printed mat).

>>> light, kit = scene_condition("bw_kit", np.random.default_rng(0))
>>> kit
'bw'
>>> frame = apply_lighting(np.full((4, 6, 3), 200, np.uint8), Lighting(gain=0.5), np.random.default_rng(0))
>>> int(frame[0, 0, 0])
100
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["ALL_CONDITIONS", "LIGHT_CONDITIONS", "Lighting", "apply_lighting", "random_lighting", "scene_condition",
           "with_shadow_of"]

ImageBGR = npt.NDArray[np.uint8]

LIGHT_CONDITIONS = ("plain", "lamp", "warm", "cold", "dim", "bw_kit")
# Conditions beyond the six of the single-card figures, asked for by name: "shadow" is a still,
# soft-edged shadow across the frame (the camera's stand, a player leaning over, a lamp
# behind someone), there from the first frame on, over the empty zone and the cards alike.
# "flicker": mains-powered light (LED drivers, fluorescent tubes) seen by a rolling
# shutter: dark and light bands across the frame, at another place in each frame.
# "deep_flicker": the same, bands 25-35 % deep (a cheap LED driver, a short exposure).
ALL_CONDITIONS = LIGHT_CONDITIONS + ("shadow", "flicker", "deep_flicker", "soft")


@dataclass(frozen=True)
class Lighting:
    """Light and optics of one frame."""

    gain: float = 1.0  # overall exposure
    gradient: tuple[float, float] = (0.0, 0.0)  # brightness change across the frame (x, y)
    colour_gains_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)  # white balance
    glare_xy: tuple[float, float] | None = None  # glare spot centre, fraction of frame
    glare_strength: float = 0.0  # added intensity at the spot's centre
    glare_radius: float = 0.08  # fraction of frame width
    blur_sigma_px: float = 0.0
    motion_blur_px: int = 0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    # a lamp: brightness falls off with the distance from lamp_xy (fraction of the
    # frame, may lie outside it) as 1 - strength + strength / (1 + (r / radius)^2),
    # r and radius in frame widths
    lamp_xy: tuple[float, float] | None = None
    lamp_strength: float = 0.0
    lamp_radius: float = 0.5
    # a cast shadow: the light falls by ``shadow_depth`` on one side of a straight edge
    # through ``shadow_xy`` (fraction of the frame) at ``shadow_angle_deg``, its penumbra
    # ``shadow_soft`` frame widths wide
    shadow_xy: tuple[float, float] | None = None
    shadow_angle_deg: float = 0.0
    shadow_depth: float = 0.0
    shadow_soft: float = 0.01
    # a rolling shutter under flickering light: brightness x (1 + banding x sin), bands
    # ``banding_period`` frame heights apart, at a random phase in each frame
    banding: float = 0.0
    banding_period: float = 0.2


def random_lighting(rng: np.random.Generator) -> Lighting:
    """Realistic room light: uneven, a little warm or cold, some glare, blur, noise, JPEG."""
    glare = rng.random() < 0.5
    return Lighting(
        gain=float(rng.uniform(0.7, 1.15)),
        gradient=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        colour_gains_bgr=(float(rng.uniform(0.8, 1.1)), 1.0, float(rng.uniform(0.9, 1.15))),
        glare_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))) if glare else None,
        glare_strength=float(rng.uniform(40.0, 140.0)) if glare else 0.0,
        glare_radius=float(rng.uniform(0.04, 0.12)),
        blur_sigma_px=float(rng.uniform(0.3, 1.6)),
        motion_blur_px=int(rng.integers(0, 5)),
        noise_sigma=float(rng.uniform(1.0, 6.0)),
        jpeg_quality=int(rng.integers(55, 95)),
    )


def with_shadow_of(light: Lighting, shadow: Lighting) -> Lighting:
    """``light`` with the still shadow's edge of ``shadow`` (a ``"shadow"`` condition): a
    player leaning over the table, or a lamp on a knocked stand."""
    return replace(light, shadow_xy=shadow.shadow_xy, shadow_angle_deg=shadow.shadow_angle_deg,
                   shadow_depth=shadow.shadow_depth, shadow_soft=shadow.shadow_soft)


def scene_condition(name: str, rng: np.random.Generator) -> tuple[Lighting, str]:
    """The lighting of one named condition, drawn at random within it, and the kit's print
    (``"colour"`` or ``"bw"``)."""
    base = Lighting(gain=float(rng.uniform(0.9, 1.05)),
                    gradient=(float(rng.uniform(-0.15, 0.15)), float(rng.uniform(-0.15, 0.15))),
                    blur_sigma_px=float(rng.uniform(0.4, 1.0)), noise_sigma=float(rng.uniform(1.5, 3.5)),
                    jpeg_quality=int(rng.integers(70, 92)))
    if name == "plain":
        return base, "colour"
    if name == "lamp":  # a desk lamp off to one side: strong, directional
        side = float(rng.choice([-0.4, 1.4]))
        return replace(base, gain=float(rng.uniform(1.05, 1.25)),
                       lamp_xy=(side, float(rng.uniform(-0.3, 0.6))),
                       lamp_strength=float(rng.uniform(0.5, 0.7)), lamp_radius=float(rng.uniform(0.4, 0.8)),
                       colour_gains_bgr=(float(rng.uniform(0.85, 0.95)), 1.0, float(rng.uniform(1.0, 1.08)))), "colour"
    if name == "warm":  # tungsten light the camera did not fully balance
        return replace(base, colour_gains_bgr=(float(rng.uniform(0.62, 0.75)), float(rng.uniform(0.88, 0.95)),
                                               float(rng.uniform(1.05, 1.15)))), "colour"
    if name == "cold":  # a daylight LED panel
        return replace(base, colour_gains_bgr=(float(rng.uniform(1.08, 1.18)), 1.0,
                                               float(rng.uniform(0.78, 0.88)))), "colour"
    if name == "dim":  # an evening room: little light, more sensor noise
        return replace(base, gain=float(rng.uniform(0.3, 0.45)), noise_sigma=float(rng.uniform(3.0, 6.0)),
                       blur_sigma_px=float(rng.uniform(0.8, 1.4))), "colour"
    if name == "bw_kit":  # the mat printed in grey, and an uneven room light
        return replace(base, gradient=(float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3)))), "bw"
    if name == "flicker":  # bands of a flickering light, rolling through the frames
        return replace(base, banding=float(rng.uniform(0.04, 0.15)),
                       banding_period=float(rng.uniform(0.2, 0.4))), "colour"
    if name == "deep_flicker":  # the same, bands far deeper
        return replace(base, banding=float(rng.uniform(0.25, 0.35)),
                       banding_period=float(rng.uniform(0.2, 0.4))), "colour"
    if name == "shadow":  # a still shadow's edge across the middle of the frame
        return replace(base, shadow_xy=(float(rng.uniform(0.35, 0.65)), float(rng.uniform(0.35, 0.65))),
                       shadow_angle_deg=float(rng.uniform(0.0, 360.0)), shadow_depth=float(rng.uniform(0.35, 0.6)),
                       shadow_soft=float(rng.uniform(0.004, 0.03))), "colour"
    if name == "soft":  # out of focus: a webcam's autofocus hunting, or focused on a hand above the table
        return replace(base, blur_sigma_px=float(rng.uniform(2.0, 3.5))), "colour"
    raise ValueError(f"light condition {name!r} is not one of {', '.join(ALL_CONDITIONS)}")


def apply_lighting(frame: ImageBGR, light: Lighting, rng: np.random.Generator) -> ImageBGR:
    """The frame as the camera records it under ``light``."""
    h, w = frame.shape[:2]
    img: npt.NDArray[np.float32] = frame.astype(np.float32)
    if light.motion_blur_px > 1:
        k = np.zeros((light.motion_blur_px, light.motion_blur_px), np.float32)
        k[light.motion_blur_px // 2, :] = 1.0 / light.motion_blur_px
        rot = cv2.getRotationMatrix2D(((light.motion_blur_px - 1) / 2.0,) * 2, float(rng.uniform(0, 180)), 1.0)
        k = np.asarray(cv2.warpAffine(k, rot, k.shape[::-1]), dtype=np.float32)
        k /= max(float(k.sum()), 1e-6)
        img = np.asarray(cv2.filter2D(img, -1, k), dtype=np.float32)
    if light.blur_sigma_px > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), light.blur_sigma_px), dtype=np.float32)
    xs = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    field_ = light.gain * (1.0 + light.gradient[0] * xs + light.gradient[1] * ys)
    if light.lamp_xy is not None and light.lamp_strength > 0:
        lx, ly = light.lamp_xy
        r2 = ((xs + 0.5 - lx) ** 2 + ((ys + 0.5 - ly) * (h / w)) ** 2) / (light.lamp_radius ** 2)
        field_ = field_ * (1.0 - light.lamp_strength + light.lamp_strength / (1.0 + r2))
    if light.shadow_xy is not None and light.shadow_depth > 0:
        angle = np.deg2rad(light.shadow_angle_deg)
        across = ((xs + 0.5 - light.shadow_xy[0]) * np.cos(angle)
                  + (ys + 0.5 - light.shadow_xy[1]) * (h / w) * np.sin(angle))  # frame widths from the edge
        shade = 1.0 / (1.0 + np.exp(-across / max(light.shadow_soft / 4.0, 1e-4)))  # 0 lit .. 1 in shadow
        field_ = field_ * (1.0 - light.shadow_depth * shade)
    if light.banding > 0:
        phase = float(rng.uniform(0.0, 2 * np.pi))
        field_ = field_ * (1.0 + light.banding * np.sin(2 * np.pi * (ys + 0.5) / light.banding_period + phase))
    gains = np.array(light.colour_gains_bgr, np.float32)
    field_ = np.asarray(np.broadcast_to(field_, (h, w)), dtype=np.float32)
    img = np.asarray(cv2.multiply(img, cv2.merge([field_ * gains[0], field_ * gains[1], field_ * gains[2]])),
                     dtype=np.float32)
    if light.glare_xy is not None and light.glare_strength > 0:
        gx, gy = light.glare_xy[0] * w, light.glare_xy[1] * h
        r = light.glare_radius * w
        x0, x1 = max(0, int(gx - 4 * r)), min(w, int(gx + 4 * r) + 1)
        y0, y1 = max(0, int(gy - 4 * r)), min(h, int(gy + 4 * r) + 1)
        if x1 > x0 and y1 > y0:
            xx = np.arange(x0, x1, dtype=np.float32)[None, :] - gx
            yy = np.arange(y0, y1, dtype=np.float32)[:, None] - gy
            spot = (light.glare_strength * np.exp(-(xx * xx + yy * yy) / (2 * r * r))).astype(np.float32)
            img[y0:y1, x0:x1] += spot[:, :, None]
    if light.noise_sigma > 0:
        noise = np.empty_like(img)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, 0.0, float(light.noise_sigma))  # type: ignore[call-overload]
        img += noise
    out: ImageBGR = np.clip(img, 0, 255).astype(np.uint8)
    if light.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = np.asarray(decoded, dtype=np.uint8)
    return np.asarray(out, dtype=np.uint8)
