#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seed corpus, corpus/<target>/seed-*: a few small inputs per
target that reach its main paths (the byte layouts are those the targets
read, see jpeg_input.h and each target). Inputs a fuzzer found are kept
beside them as crash-* files and are never rewritten."""
import os
import random
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(11)


def noise(n):
    return bytes(rng.randrange(256) for _ in range(n))


def write(target, name, data):
    path = os.path.join(here, 'corpus', target)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, 'seed-' + name), 'wb') as f:
        f.write(data)


def jpeg_settings(quality=100, distance=0, progressive=3, subsampling=0,
                  flags=0):
    # quality byte q gives q % 120 - 10; distance byte < 100: from quality;
    # progressive byte p gives p % 5 - 1; flags: bit 0 no AQ, 1 std_quant,
    # 2 xyb, 3 fixed_code, 4.. simd.
    return bytes([quality, distance, progressive, subsampling, flags])


def jpeg_size(width, height):
    return bytes([0, width - 1, height - 1])  # mode < 200: 1 + byte each


# format byte: index into GRAY8, RGB8, BGR8, RGBX8, BGRX8, XRGB8, XBGR8
for name, settings, size, fmt, extra in [
        ('rgb-q90', jpeg_settings(), (16, 16), 1, b''),
        ('gray-noaq-fixed', jpeg_settings(60, 0, 1, 0, 1 | 8), (9, 7), 0, b''),
        ('xyb-d1', jpeg_settings(100, 105, 3, 0, 4 | 0x20), (33, 17), 3, b''),
        ('420-std-sse2', jpeg_settings(50, 0, 2, 4, 2 | 0x20), (24, 40), 5, b''),
        ('422-avx2-stride', jpeg_settings(80, 0, 3, 3, 0x30), (20, 9), 2, b''),
        ('440-auto', jpeg_settings(100, 0, 3, 2, 0x00), (8, 24), 6, b''),
]:
    write('jpeg_encode', name,
          settings + jpeg_size(*size) + bytes([fmt, 3 if 'stride' in name
                                               else 0, 0]) + noise(96) + extra)
write('jpeg_encode', 'wide-row',
      jpeg_settings() + bytes([200]) + struct.pack('<HH', 4000, 1) +
      bytes([1, 0, 0]) + noise(64))

# jpeg_encoder: settings, size, format, then (threads - 1) | fif << 1, then
# operations: 0/1 send (odd byte, stride byte), 2 receive, 3 settings,
# 4 drain, 5 reset.
send = bytes([0, 0, 0])
for name, head, ops in [
        ('one-thread-fif1', bytes([0 | 1 << 1]),
         send * 3 + bytes([2]) + send + bytes([4, 2])),
        ('two-threads-fif3', bytes([1 | 3 << 1]),
         send * 5 + bytes([2]) + send * 2 + bytes([3]) +
         jpeg_settings(40, 0, 1, 4, 0) + send * 2 + bytes([4, 2])),
        ('auto-reset', bytes([1]),
         send * 4 + bytes([5]) + send * 2 + bytes([1, 254, 0, 0, 255, 0, 2])),
]:
    write('jpeg_encoder', name,
          jpeg_settings() + jpeg_size(12, 10) + bytes([1]) + head + ops +
          noise(32))

# mp3_encoder: rate index, shape (bit 0: stereo, bits 1-2: rate control
# VBR/CBR/ABR), vbr byte (x 0.04), bitrate index, quality (% 12 - 1), flags
# (mode, replaygain bit 3, no-lametag bit 4, simd bits 5..), ring; then
# operations: 0-3 send (format in bits 3-4: s16/s32/f32/NULL; kind; u16
# frames), 4/5 receive, 6 drain, 7 reset.
def mp3_send(fmt, kind, frames):
    return bytes([fmt << 3, kind]) + struct.pack('<H', frames)


stream = (mp3_send(0, 1, 1500) + bytes([4]) + mp3_send(1, 4, 3000) +
          mp3_send(2, 2, 700) + bytes([4]) + mp3_send(2, 5, 200))
for name, head in [
        ('vbr-44100-stereo', bytes([7, 1, 100, 12, 0, 0x08, 0])),
        ('cbr-48000-mono', bytes([8, 2, 0, 12, 3, 0x00, 2])),
        ('abr-32000-joint', bytes([6, 5, 0, 9, 6, 0x01, 0])),
        ('cbr0-22050-notag', bytes([4, 3, 0, 0, 0, 0x12, 1])),
        ('vbr-8000-mono-mix', bytes([0, 1, 225, 0, 10, 0x03, 4])),
        ('resample-96000', bytes([15, 1, 150, 0, 2, 0x28, 0])),
        ('resample-7999', bytes([10, 0, 40, 0, 0, 0x41, 3])),
]:
    write('mp3_encoder', name, head + stream)
write('mp3_encoder', 'reset-drain',
      bytes([7, 1, 100, 12, 0, 0, 0]) + mp3_send(0, 3, 4000) + bytes([6, 4]) +
      mp3_send(0, 1, 10) + bytes([7]) + mp3_send(1, 3, 2000) + bytes([7]) +
      mp3_send(2, 6, 1200))

# pnm_read
write('pnm_read', 'p5', b'P5\n4 3\n255\n' + noise(12))
write('pnm_read', 'p6-comment', b'P6\n# a comment\n3 2 255\n' + noise(18))
write('pnm_read', 'p6-short', b'P6 8 8 255\n' + noise(20))
write('pnm_read', 'p6-huge-header', b'P6 65535 65535 255\n')
write('pnm_read', 'p5-maxval', b'P5 2 2 65535\n' + noise(8))


# wav_read
def wav(fmt_tag, channels, rate, bits, data, fmt_extra=b'', odd_fmt=False,
        extensible=False):
    block = channels * bits // 8
    fmt = struct.pack('<HHIIHH', 0xfffe if extensible else fmt_tag, channels,
                      rate, rate * block, block, bits)
    if extensible:
        fmt += struct.pack('<HHI', 22, bits, 3 if channels == 2 else 4)
        fmt += struct.pack('<H', fmt_tag) + bytes.fromhex(
            '000000001000800000aa00389b71')
    fmt += fmt_extra
    if odd_fmt:
        fmt += b'\0'
    chunks = b'fmt ' + struct.pack('<I', len(fmt)) + fmt
    if len(fmt) & 1:
        chunks += b'\0'
    chunks += b'LIST' + struct.pack('<I', 3) + b'abc\0'
    chunks += b'data' + struct.pack('<I', len(data)) + data
    return b'RIFF' + struct.pack('<I', 4 + len(chunks)) + b'WAVE' + chunks


write('wav_read', 's16-mono', wav(1, 1, 44100, 16, noise(200)))
write('wav_read', 's16-stereo-odd-fmt', wav(1, 2, 22050, 16, noise(160),
                                              odd_fmt=True))
write('wav_read', 'u8-mono', wav(1, 1, 8000, 8, noise(99)))
write('wav_read', 's24-stereo', wav(1, 2, 48000, 24, noise(180)))
write('wav_read', 's32-ext', wav(1, 2, 32000, 32, noise(160),
                                 extensible=True))
write('wav_read', 'f32-mono', wav(3, 1, 16000, 32,
                                  struct.pack('<8f', 0.5, -0.25, 1.5, -2.0,
                                              0.0, 1e-9, 0.75, -1.0)))
write('wav_read', 's16-truncated', wav(1, 1, 44100, 16, noise(64))[:70])

# jpeg_yuv: settings, size, the format byte (I420, I422, I444, NV12, NV21,
# YUYV, UYVY, YVYU), then per plane a stride byte (+ byte % 16; >= 250 one
# short) and a byte that is 255 for a missing plane; the pixels are the
# rest.
for name, settings, size, fmt, planes in [
        ('i420-q90', jpeg_settings(), (17, 15), 0, bytes([0, 0, 3, 0, 0, 0])),
        ('i422-p0-stride', jpeg_settings(80, 0, 1, 0, 0x20), (33, 9), 1,
         bytes([5, 0, 7, 0, 1, 0])),
        ('i444-noaq', jpeg_settings(60, 0, 3, 0, 1), (9, 20), 2,
         bytes([0, 0, 0, 0, 0, 0])),
        ('nv12-avx2', jpeg_settings(95, 0, 2, 0, 0x30), (31, 31), 3,
         bytes([2, 0, 9, 0, 0, 0])),
        ('yuyv-odd', jpeg_settings(), (7, 12), 5, bytes([0, 0, 0, 0, 0, 0])),
        ('uyvy-short-stride', jpeg_settings(), (8, 8), 6,
         bytes([250, 0, 0, 0, 0, 0])),
        ('i420-no-cr', jpeg_settings(), (8, 8), 0, bytes([0, 0, 0, 0, 0, 255])),
        ('nv21-444-contradicts', jpeg_settings(90, 0, 3, 1, 0), (16, 16), 4,
         bytes([0, 0, 0, 0, 0, 0])),
]:
    write('jpeg_yuv', name, settings + jpeg_size(*size) + bytes([fmt]) +
          planes + noise(128))
sys.exit(0)
