/*
 * The filterbank's SSE2 kernel (mdct_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/mdct_dsp.h"

#include "mp3/x86/simd.h"

/* ---- the polyphase window ------------------------------------------------- */

/* enwindow transposed (simd.h); checkasm compares the window with mdct.c's,
 * which reads enwindow itself. */
const float ct_mp3_wsub_w[18][16] = {
    {
        -0x1.2f9ef2p-3f, -0x1.3cc206p-3f, -0x1.4921bep-3f, -0x1.54b67ap-3f, -0x1.5f7916p-3f,
        -0x1.6962fp-3f, -0x1.726de8p-2f, -0x1.7a946ep-2f, -0x1.81d176p-2f, -0x1.88208ep-2f,
        -0x1.2a1e5cp-1f, -0x1.2d6c72p-1f, -0x1.951fccp-1f, -0x1.9795bep-1f, -0x1.ff621ep-1f,
    },
    {
        0x1.027714p+5f, 0x1.129858p+5f, 0x1.212d2p+5f, 0x1.2e0362p+5f, 0x1.38ec96p+5f,
        0x1.41c016p+5f, 0x1.485abap+5f, 0x1.4b254ep+5f, 0x1.4cf4b6p+5f, 0x1.493692p+5f,
        0x1.42d9e4p+5f, 0x1.39dfd4p+5f, 0x1.2b2648p+5f, 0x1.19db92p+5f, 0x1.04813p+5f,
    },
    {
        0x1.286748p+8f, 0x1.2dce88p+8f, 0x1.301e4p+8f, 0x1.2f02d4p+8f, 0x1.2a5762p+8f,
        0x1.21ff8ap+8f, 0x1.158bdcp+8f, 0x1.054b28p+8f, 0x1.e21bc6p+7f, 0x1.b0f424p+7f,
        0x1.7866c4p+7f, 0x1.37859cp+7f, 0x1.decc46p+6f, 0x1.4013bep+6f, 0x1.27aabcp+5f,
    },
    {
        0x1.b99136p+9f, 0x1.98cccp+9f, 0x1.6e5f18p+9f, 0x1.39fcc4p+9f, 0x1.f786a2p+8f,
        0x1.675296p+8f, 0x1.8746f6p+7f, 0x1.9def6cp+3f, -0x1.77e4bp+7f, -0x1.96282ep+8f,
        -0x1.4022a6p+9f, -0x1.bc9fe8p+9f, -0x1.1fc62p+10f, -0x1.64015cp+10f, -0x1.aa84d4p+10f,
    },
    {
        0x1.5b4f94p+13f, 0x1.69ae5ep+13f, 0x1.76ace2p+13f, 0x1.82361cp+13f, 0x1.8c3cb8p+13f,
        0x1.94b212p+13f, 0x1.9b8b82p+13f, 0x1.a0c10ep+13f, 0x1.a45082p+13f, 0x1.a63918p+13f,
        0x1.a679b8p+13f, 0x1.a51bc4p+13f, 0x1.a22392p+13f, 0x1.9d9e5ap+13f, 0x1.979a4cp+13f,
    },
    {
        0x1.08515ep+10f, 0x1.275022p+10f, 0x1.4500cap+10f, 0x1.6111cap+10f, 0x1.7b2542p+10f,
        0x1.93067ep+10f, 0x1.a8692cp+10f, 0x1.bb208ep+10f, 0x1.cb09dap+10f, 0x1.d7f3bp+10f,
        0x1.e1e68cp+10f, 0x1.e8c36cp+10f, 0x1.ec994cp+10f, 0x1.ed7376p+10f, 0x1.eb5884p+10f,
    },
    {
        0x1.31bd8p+8f, 0x1.4198eap+8f, 0x1.4f48fp+8f, 0x1.5abfecp+8f, 0x1.63fc2ep+8f,
        0x1.6ad9c6p+8f, 0x1.6f68ecp+8f, 0x1.71c3eep+8f, 0x1.717daap+8f, 0x1.6f4d72p+8f,
        0x1.6ad1dcp+8f, 0x1.6471f2p+8f, 0x1.5c0504p+8f, 0x1.51fdaap+8f, 0x1.466e8cp+8f,
    },
    {
        0x1.ed3702p+4f, 0x1.f3b65cp+4f, 0x1.f7cf82p+4f, 0x1.f99296p+4f, 0x1.f652e8p+4f,
        0x1.f0bc18p+4f, 0x1.e8e9ap+4f, 0x1.dc056cp+4f, 0x1.d00792p+4f, 0x1.c22deep+4f,
        0x1.af804cp+4f, 0x1.9e51bap+4f, 0x1.8bb42cp+4f, 0x1.74a066p+4f, 0x1.62ccep+4f,
    },
    {
        0x1.ed398ep+1f, 0x1.daf888p+1f, 0x1.afdb2ap+1f, 0x1.947668p+1f, 0x1.754d4ap+1f,
        0x1.693e92p+1f, 0x1.440752p+1f, 0x1.337f32p+1f, 0x1.09262p+1f, 0x1.e9f416p+0f,
        0x1.bf12ep+0f, 0x1.91caf8p+0f, 0x1.629038p+0f, 0x1.64b78ap+0f, 0x1.32d9f6p+0f,
    },
    {
        0x1.db6e9ap+5f, 0x1.ad3524p+5f, 0x1.79dba2p+5f, 0x1.44a15ap+5f, 0x1.0e609ap+5f,
        0x1.afd262p+4f, 0x1.411f5ap+4f, 0x1.a9c0e2p+3f, 0x1.b1e4d2p+2f, 0x1.88208ep-2f,
        -0x1.6818bp+2f, -0x1.65d272p+3f, -0x1.06be18p+4f, -0x1.51984p+4f, -0x1.95f0a2p+4f,
    },
    {
        0x1.62cb84p+9f, 0x1.56156ep+9f, 0x1.465e5cp+9f, 0x1.341564p+9f, 0x1.1f727cp+9f,
        0x1.08f328p+9f, 0x1.e18088p+8f, 0x1.ae8fc4p+8f, 0x1.79c6dcp+8f, 0x1.43da8ap+8f,
        0x1.0d4d3ap+8f, 0x1.ad9e2p+7f, 0x1.4219cp+7f, 0x1.b1ef16p+6f, 0x1.cc47cep+5f,
    },
    {
        0x1.4a1e94p+12f, 0x1.46891p+12f, 0x1.40c6ap+12f, 0x1.38fd54p+12f, 0x1.2f53c2p+12f,
        0x1.23f5f4p+12f, 0x1.170f86p+12f, 0x1.08d0e8p+12f, 0x1.f2cc5ep+11f, 0x1.d204b6p+11f,
        0x1.afac5ep+11f, 0x1.8c254p+11f, 0x1.67caa2p+11f, 0x1.42f66cp+11f, 0x1.1e0d68p+11f,
    },
    {
        -0x1.6c5aa4p+12f, -0x1.8de646p+12f, -0x1.afd164p+12f, -0x1.d1e0a6p+12f, -0x1.f3d92p+12f,
        -0x1.0abf32p+13f, -0x1.1b4af4p+13f, -0x1.2b6f74p+13f, -0x1.3b0dacp+13f, -0x1.4a09dep+13f,
        -0x1.58412ap+13f, -0x1.659a92p+13f, -0x1.71f7eep+13f, -0x1.7d3ddp+13f, -0x1.875566p+13f,
    },
    {
        -0x1.98d08ep+9f, -0x1.c67d02p+9f, -0x1.f4ffep+9f, -0x1.11f2f2p+10f, -0x1.2970ccp+10f,
        -0x1.40a5cp+10f, -0x1.576838p+10f, -0x1.6d6c4p+10f, -0x1.827ca2p+10f, -0x1.964cf8p+10f,
        -0x1.a8aa0cp+10f, -0x1.b94a2ap+10f, -0x1.c7ff18p+10f, -0x1.d491ccp+10f, -0x1.deb5c4p+10f,
    },
    {
        -0x1.33aa92p+6f, -0x1.6752ap+6f, -0x1.9e7cc8p+6f, -0x1.d8f9fap+6f, -0x1.0b49fap+7f,
        -0x1.2b2bccp+7f, -0x1.4c5504p+7f, -0x1.6e4132p+7f, -0x1.90c0aap+7f, -0x1.b3402p+7f,
        -0x1.d5882p+7f, -0x1.f760dp+7f, -0x1.0c4916p+8f, -0x1.1c3f28p+8f, -0x1.2b432ep+8f,
    },
    {
        -0x1.260884p+2f, -0x1.5a5456p+2f, -0x1.86b6f2p+2f, -0x1.b461cep+2f, -0x1.ee1904p+2f,
        -0x1.149782p+3f, -0x1.32a71p+3f, -0x1.56f9fp+3f, -0x1.7ba9d6p+3f, -0x1.a07e6cp+3f,
        -0x1.c53b82p+3f, -0x1.efec02p+3f, -0x1.0d137p+4f, -0x1.21d1b4p+4f, -0x1.360c84p+4f,
    },
    {
        0x1.d00cbcp-1f, 0x1.a43002p-1f, 0x1.7bb99ep-1f, 0x1.561b82p-1f, 0x1.32e188p-1f,
        0x1.11ab72p-1f, 0x1.e450ep-2f, 0x1.a8279ap-2f, 0x1.6e64ap-2f, 0x1.36a084p-2f,
        0x1.007fa8p-2f, 0x1.975f5ep-3f, 0x1.2fcac8p-3f, 0x1.936bb8p-4f, 0x1.927278p-5f,
    },
    {
        0x1.917a6cp-3f, 0x1.8f8b84p-2f, 0x1.294062p-1f, 0x1.87de2ap-1f, 0x1.e2b5d4p-1f,
        0x1.1c73b4p+0f, 0x1.44cf32p+0f, 0x1.6a09e6p+0f, 0x1.8bc806p+0f, 0x1.a9b662p+0f,
        0x1.c38b3p+0f, 0x1.d906bcp+0f, 0x1.e9f416p+0f, 0x1.f6297cp+0f, 0x1.fd88dap+0f,
    },
};

/* The lanes m .. m + 3 (i = m - 15 ..): x1 - m descending (reversed
 * loads), x2 + m ascending. */
static void window_subband4_sse2(const float *x1, const float *x2, int m, float a[32])
{
#define W(j) _mm_loadu_ps(&ct_mp3_wsub_w[(j) + 10][m])
#define X1(c) rev4(_mm_loadu_ps(x1 + (c) - m - 3))
#define X2(c) _mm_loadu_ps(x2 + (c) + m)
    __m128 w, s, t;
    w = W(-10);
    s = _mm_mul_ps(X2(-224), w);
    t = _mm_mul_ps(X1(224), w);
    w = W(-9);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-160), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(160), w));
    w = W(-8);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-96), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(96), w));
    w = W(-7);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-32), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(32), w));
    w = W(-6);
    s = _mm_add_ps(s, _mm_mul_ps(X2(32), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-32), w));
    w = W(-5);
    s = _mm_add_ps(s, _mm_mul_ps(X2(96), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-96), w));
    w = W(-4);
    s = _mm_add_ps(s, _mm_mul_ps(X2(160), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-160), w));
    w = W(-3);
    s = _mm_add_ps(s, _mm_mul_ps(X2(224), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-224), w));
    w = W(-2);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-256), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(256), w));
    w = W(-1);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-192), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(192), w));
    w = W(0);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-128), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(128), w));
    w = W(1);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-64), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(64), w));
    w = W(2);
    s = _mm_add_ps(s, _mm_mul_ps(X1(0), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(0), w));
    w = W(3);
    s = _mm_add_ps(s, _mm_mul_ps(X1(64), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-64), w));
    w = W(4);
    s = _mm_add_ps(s, _mm_mul_ps(X1(128), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-128), w));
    w = W(5);
    s = _mm_add_ps(s, _mm_mul_ps(X1(192), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-192), w));
    s = _mm_mul_ps(s, W(6));
    {
        __m128 const sum = _mm_add_ps(t, s);
        __m128 const dif = _mm_mul_ps(W(7), _mm_sub_ps(t, s));
        _mm_storeu_ps(a + 2 * m, _mm_unpacklo_ps(sum, dif));
        _mm_storeu_ps(a + 2 * m + 4, _mm_unpackhi_ps(sum, dif));
    }
#undef W
#undef X1
#undef X2
}

void ct_mp3_window_subband_sse2(const float *x1, float a[32])
{
    const float *const x2 = &x1[238 - 14 - 286];
    int m;
    for (m = 0; m < 16; m += 4)
        window_subband4_sse2(x1, x2, m, a);
}
