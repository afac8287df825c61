/*
 * The FFT's SSE2 kernel (fft_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/fft_dsp.h"

#include <stddef.h>

#include "mp3/util.h"
#include "mp3/x86/simd.h"

/* ---- the fast Hartley transform --------------------------------------------- */

/* The twiddles of stage st (kx = 2 * 4^st) for i = 1 .. kx - 1, from
 * fht's recurrence, in its float arithmetic (checkasm compares the FHTs
 * with fft.c's, which runs the recurrence). */
const ct_mp3_fht_twiddles ct_mp3_fht_tw = {
    .c1 = {
        {
            0, 0x1.d906bcp-1f,
        },
        {
            0, 0x1.fd88dap-1f, 0x1.f6297cp-1f, 0x1.e9f414p-1f, 0x1.d906bcp-1f,
            0x1.c38b2ep-1f, 0x1.a9b66p-1f, 0x1.8bc804p-1f,
        },
        {
            0, 0x1.ffd886p-1f, 0x1.ff622p-1f, 0x1.fe9cdcp-1f, 0x1.fd88dcp-1f,
            0x1.fc2648p-1f, 0x1.fa7558p-1f, 0x1.f8765p-1f, 0x1.f6297cp-1f, 0x1.f38f3ap-1f,
            0x1.f0a7fp-1f, 0x1.ed740ep-1f, 0x1.e9f414p-1f, 0x1.e6288ep-1f, 0x1.e2121p-1f,
            0x1.ddb13ap-1f, 0x1.d906bcp-1f, 0x1.d4134cp-1f, 0x1.ced7aep-1f, 0x1.c954bp-1f,
            0x1.c38b2ep-1f, 0x1.bd7c0ap-1f, 0x1.b72832p-1f, 0x1.b090a4p-1f, 0x1.a9b662p-1f,
            0x1.a29a7ap-1f, 0x1.9b3e04p-1f, 0x1.93a224p-1f, 0x1.8bc806p-1f, 0x1.83b0ep-1f,
            0x1.7b5df2p-1f, 0x1.72d084p-1f,
        },
        {
            0, 0x1.fffd88p-1f, 0x1.fff62p-1f, 0x1.ffe9cap-1f, 0x1.ffd884p-1f,
            0x1.ffc25p-1f, 0x1.ffa72cp-1f, 0x1.ff871ap-1f, 0x1.ff621ap-1f, 0x1.ff382cp-1f,
            0x1.ff095p-1f, 0x1.fed588p-1f, 0x1.fe9cd4p-1f, 0x1.fe5f34p-1f, 0x1.fe1ca8p-1f,
            0x1.fdd532p-1f, 0x1.fd88d2p-1f, 0x1.fd378ap-1f, 0x1.fce158p-1f, 0x1.fc863ep-1f,
            0x1.fc263ep-1f, 0x1.fbc158p-1f, 0x1.fb578ep-1f, 0x1.fae8ep-1f, 0x1.fa754ep-1f,
            0x1.f9fcdap-1f, 0x1.f97f88p-1f, 0x1.f8fd56p-1f, 0x1.f87644p-1f, 0x1.f7ea58p-1f,
            0x1.f7599p-1f, 0x1.f6c3ecp-1f, 0x1.f62972p-1f, 0x1.f58a2p-1f, 0x1.f4e5f8p-1f,
            0x1.f43cfcp-1f, 0x1.f38f2ep-1f, 0x1.f2dc9p-1f, 0x1.f22522p-1f, 0x1.f168e8p-1f,
            0x1.f0a7e2p-1f, 0x1.efe212p-1f, 0x1.ef177cp-1f, 0x1.ee481ep-1f, 0x1.ed73fep-1f,
            0x1.ec9b1cp-1f, 0x1.ebbd7cp-1f, 0x1.eadb1ep-1f, 0x1.e9f404p-1f, 0x1.e90832p-1f,
            0x1.e817a8p-1f, 0x1.e7226cp-1f, 0x1.e6287cp-1f, 0x1.e529dep-1f, 0x1.e42694p-1f,
            0x1.e31e9ep-1f, 0x1.e212p-1f, 0x1.e100bcp-1f, 0x1.dfead4p-1f, 0x1.ded04ep-1f,
            0x1.ddb128p-1f, 0x1.dc8d68p-1f, 0x1.db6512p-1f, 0x1.da3826p-1f, 0x1.d906a8p-1f,
            0x1.d7d09ap-1f, 0x1.d69602p-1f, 0x1.d556ep-1f, 0x1.d41336p-1f, 0x1.d2cb0ap-1f,
            0x1.d17e6p-1f, 0x1.d02d38p-1f, 0x1.ced798p-1f, 0x1.cd7d8p-1f, 0x1.cc1ef6p-1f,
            0x1.cabbfep-1f, 0x1.c9549ap-1f, 0x1.c7e8cep-1f, 0x1.c6789cp-1f, 0x1.c5040ap-1f,
            0x1.c38b18p-1f, 0x1.c20dccp-1f, 0x1.c08c2ap-1f, 0x1.bf0636p-1f, 0x1.bd7bf2p-1f,
            0x1.bbed64p-1f, 0x1.ba5a8ep-1f, 0x1.b8c374p-1f, 0x1.b7281cp-1f, 0x1.b58888p-1f,
            0x1.b3e4bcp-1f, 0x1.b23cbcp-1f, 0x1.b0908cp-1f, 0x1.aee032p-1f, 0x1.ad2bbp-1f,
            0x1.ab730cp-1f, 0x1.a9b648p-1f, 0x1.a7f56ap-1f, 0x1.a63076p-1f, 0x1.a4677p-1f,
            0x1.a29a5ep-1f, 0x1.a0c944p-1f, 0x1.9ef424p-1f, 0x1.9d1b04p-1f, 0x1.9b3de8p-1f,
            0x1.995cd6p-1f, 0x1.9777d2p-1f, 0x1.958ee2p-1f, 0x1.93a208p-1f, 0x1.91b14ap-1f,
            0x1.8fbcacp-1f, 0x1.8dc434p-1f, 0x1.8bc7e8p-1f, 0x1.89c7ccp-1f, 0x1.87c3e4p-1f,
            0x1.85bc34p-1f, 0x1.83b0c2p-1f, 0x1.81a194p-1f, 0x1.7f8eaep-1f, 0x1.7d7816p-1f,
            0x1.7b5dd2p-1f, 0x1.793fe6p-1f, 0x1.771e56p-1f, 0x1.74f928p-1f, 0x1.72d062p-1f,
            0x1.70a40ap-1f, 0x1.6e7424p-1f, 0x1.6c40b6p-1f,
        },
    },
    .s1 = {
        {
            0, 0x1.87de2ap-2f,
        },
        {
            0, 0x1.917a6cp-4f, 0x1.8f8b84p-3f, 0x1.294064p-2f, 0x1.87de2cp-2f,
            0x1.e2b5d4p-2f, 0x1.1c73b4p-1f, 0x1.44cf32p-1f,
        },
        {
            0, 0x1.92156p-6f, 0x1.91f66p-5f, 0x1.2d520ap-4f, 0x1.917a6cp-4f,
            0x1.f564e6p-4f, 0x1.2c8108p-3f, 0x1.5e2144p-3f, 0x1.8f8b84p-3f, 0x1.c0b828p-3f,
            0x1.f19f9ap-3f, 0x1.111d28p-2f, 0x1.294066p-2f, 0x1.4135ccp-2f, 0x1.58f9aap-2f,
            0x1.708854p-2f, 0x1.87de2cp-2f, 0x1.9ef796p-2f, 0x1.b5d104p-2f, 0x1.cc66ecp-2f,
            0x1.e2b5d6p-2f, 0x1.f8ba5p-2f, 0x1.07387ap-1f, 0x1.11eb36p-1f, 0x1.1c73b4p-1f,
            0x1.26d056p-1f, 0x1.30ff8p-1f, 0x1.3affa2p-1f, 0x1.44cf32p-1f, 0x1.4e6caap-1f,
            0x1.57d692p-1f, 0x1.610b74p-1f,
        },
        {
            0, 0x1.921f1p-8f, 0x1.921d2p-7f, 0x1.2d936cp-6f, 0x1.92156p-6f,
            0x1.f69374p-6f, 0x1.2d8658p-5f, 0x1.5fc00ep-5f, 0x1.91f66p-5f, 0x1.c428d2p-5f,
            0x1.f656e8p-5f, 0x1.144014p-4f, 0x1.2d520ap-4f, 0x1.466118p-4f, 0x1.5f6d02p-4f,
            0x1.787588p-4f, 0x1.917a6ep-4f, 0x1.aa7b74p-4f, 0x1.c3785ep-4f, 0x1.dc70ecp-4f,
            0x1.f564e4p-4f, 0x1.072a04p-3f, 0x1.139f0cp-3f, 0x1.20116cp-3f, 0x1.2c8104p-3f,
            0x1.38edb8p-3f, 0x1.455768p-3f, 0x1.51bdf4p-3f, 0x1.5e214p-3f, 0x1.6a812cp-3f,
            0x1.76dd98p-3f, 0x1.833668p-3f, 0x1.8f8b7cp-3f, 0x1.9bdcb6p-3f, 0x1.a829f8p-3f,
            0x1.b47324p-3f, 0x1.c0b81cp-3f, 0x1.ccf8cp-3f, 0x1.d934f2p-3f, 0x1.e56c94p-3f,
            0x1.f19f88p-3f, 0x1.fdcdb2p-3f, 0x1.04fb78p-2f, 0x1.0b0d94p-2f, 0x1.111d1cp-2f,
            0x1.172a02p-2f, 0x1.1d3438p-2f, 0x1.233baep-2f, 0x1.294056p-2f, 0x1.2f4222p-2f,
            0x1.3541p-2f, 0x1.3b3ce2p-2f, 0x1.4135bap-2f, 0x1.472b7cp-2f, 0x1.4d1e16p-2f,
            0x1.530d78p-2f, 0x1.58f998p-2f, 0x1.5ee264p-2f, 0x1.64c7cep-2f, 0x1.6aa9c8p-2f,
            0x1.708842p-2f, 0x1.76633p-2f, 0x1.7c3a82p-2f, 0x1.820e28p-2f, 0x1.87de18p-2f,
            0x1.8daa4p-2f, 0x1.937294p-2f, 0x1.993704p-2f, 0x1.9ef78p-2f, 0x1.a4b3fep-2f,
            0x1.aa6c6cp-2f, 0x1.b020cp-2f, 0x1.b5d0e8p-2f, 0x1.bb7cdap-2f, 0x1.c12484p-2f,
            0x1.c6c7dap-2f, 0x1.cc66cep-2f, 0x1.d20152p-2f, 0x1.d79758p-2f, 0x1.dd28d4p-2f,
            0x1.e2b5b6p-2f, 0x1.e83dfp-2f, 0x1.edc176p-2f, 0x1.f3403ap-2f, 0x1.f8ba2ep-2f,
            0x1.fe2f44p-2f, 0x1.01cfb8p-1f, 0x1.048552p-1f, 0x1.073868p-1f, 0x1.09e8f6p-1f,
            0x1.0c96f4p-1f, 0x1.0f425ap-1f, 0x1.11eb24p-1f, 0x1.14914ap-1f, 0x1.1734c4p-1f,
            0x1.19d58ep-1f, 0x1.1c73ap-1f, 0x1.1f0ef4p-1f, 0x1.21a784p-1f, 0x1.243d4ap-1f,
            0x1.26d04p-1f, 0x1.29605ep-1f, 0x1.2bed9cp-1f, 0x1.2e77f8p-1f, 0x1.30ff68p-1f,
            0x1.3383eap-1f, 0x1.360574p-1f, 0x1.388402p-1f, 0x1.3aff8cp-1f, 0x1.3d780ep-1f,
            0x1.3fed8p-1f, 0x1.425fdcp-1f, 0x1.44cf1cp-1f, 0x1.473b3cp-1f, 0x1.49a434p-1f,
            0x1.4c0ap-1f, 0x1.4e6c96p-1f, 0x1.50cbf4p-1f, 0x1.532812p-1f, 0x1.5580ecp-1f,
            0x1.57d67ap-1f, 0x1.5a28bap-1f, 0x1.5c77a2p-1f, 0x1.5ec33p-1f, 0x1.610b5cp-1f,
            0x1.63502p-1f, 0x1.659178p-1f, 0x1.67cf5cp-1f,
        },
    },
    .c2 = {
        {
            0, 0x1.6a09e8p-1f,
        },
        {
            0, 0x1.f6297cp-1f, 0x1.d906bcp-1f, 0x1.a9b662p-1f, 0x1.6a09e4p-1f,
            0x1.1c73b4p-1f, 0x1.87de28p-2f, 0x1.8f8b88p-3f,
        },
        {
            0, 0x1.ff621ep-1f, 0x1.fd88dap-1f, 0x1.fa7558p-1f, 0x1.f6297cp-1f,
            0x1.f0a7fp-1f, 0x1.e9f416p-1f, 0x1.e2121p-1f, 0x1.d906bcp-1f, 0x1.ced7bp-1f,
            0x1.c38b2ep-1f, 0x1.b72834p-1f, 0x1.a9b66p-1f, 0x1.9b3e04p-1f, 0x1.8bc804p-1f,
            0x1.7b5dfp-1f, 0x1.6a09e4p-1f, 0x1.57d692p-1f, 0x1.44cf3p-1f, 0x1.30ff7ep-1f,
            0x1.1c73bp-1f, 0x1.073878p-1f, 0x1.e2b5dp-2f, 0x1.b5d0fcp-2f, 0x1.87de28p-2f,
            0x1.58f9ap-2f, 0x1.29406p-2f, 0x1.f19fap-3f, 0x1.8f8b88p-3f, 0x1.2c8118p-3f,
            0x1.917a8p-4f, 0x1.91f6ap-5f,
        },
        {
            0, 0x1.fff622p-1f, 0x1.ffd886p-1f, 0x1.ffa73p-1f, 0x1.ff621ep-1f,
            0x1.ff0956p-1f, 0x1.fe9cdap-1f, 0x1.fe1cbp-1f, 0x1.fd88dap-1f, 0x1.fce16p-1f,
            0x1.fc2648p-1f, 0x1.fb5798p-1f, 0x1.fa7558p-1f, 0x1.f97f92p-1f, 0x1.f8765p-1f,
            0x1.f7599ap-1f, 0x1.f6297cp-1f, 0x1.f4e604p-1f, 0x1.f38f3ap-1f, 0x1.f2253p-1f,
            0x1.f0a7fp-1f, 0x1.ef178ap-1f, 0x1.ed740ep-1f, 0x1.ebbd8cp-1f, 0x1.e9f416p-1f,
            0x1.e817bcp-1f, 0x1.e6289p-1f, 0x1.e426a6p-1f, 0x1.e2121p-1f, 0x1.dfeae8p-1f,
            0x1.ddb13cp-1f, 0x1.db6528p-1f, 0x1.d906bep-1f, 0x1.d69618p-1f, 0x1.d4135p-1f,
            0x1.d17e7ap-1f, 0x1.ced7b2p-1f, 0x1.cc1f12p-1f, 0x1.c954b4p-1f, 0x1.c678b6p-1f,
            0x1.c38b34p-1f, 0x1.c08c46p-1f, 0x1.bd7c1p-1f, 0x1.ba5aacp-1f, 0x1.b7283ap-1f,
            0x1.b3e4dap-1f, 0x1.b090acp-1f, 0x1.ad2bdp-1f, 0x1.a9b66ap-1f, 0x1.a63098p-1f,
            0x1.a29a82p-1f, 0x1.9ef448p-1f, 0x1.9b3e0ep-1f, 0x1.9777f8p-1f, 0x1.93a22ep-1f,
            0x1.8fbcd4p-1f, 0x1.8bc81p-1f, 0x1.87c40cp-1f, 0x1.83b0ecp-1f, 0x1.7f8ed8p-1f,
            0x1.7b5dfep-1f, 0x1.771e82p-1f, 0x1.72d09p-1f, 0x1.6e7454p-1f, 0x1.6a09f4p-1f,
            0x1.6591ap-1f, 0x1.610b84p-1f, 0x1.5c77cap-1f, 0x1.57d6a4p-1f, 0x1.53283ap-1f,
            0x1.4e6ccp-1f, 0x1.49a45cp-1f, 0x1.44cf48p-1f, 0x1.3fedaap-1f, 0x1.3affb8p-1f,
            0x1.3605a4p-1f, 0x1.30ff98p-1f, 0x1.2bedccp-1f, 0x1.26d07p-1f, 0x1.21a7b4p-1f,
            0x1.1c73dp-1f, 0x1.1734f4p-1f, 0x1.11eb54p-1f, 0x1.0c9724p-1f, 0x1.073898p-1f,
            0x1.01cfe8p-1f, 0x1.f8ba9p-2f, 0x1.edc1d8p-2f, 0x1.e2b61cp-2f, 0x1.d797bcp-2f,
            0x1.cc673p-2f, 0x1.c124e8p-2f, 0x1.b5d14cp-2f, 0x1.aa6cccp-2f, 0x1.9ef7e4p-2f,
            0x1.9372f8p-2f, 0x1.87de8p-2f, 0x1.7c3afp-2f, 0x1.7088b4p-2f, 0x1.64c84p-2f,
            0x1.58fa08p-2f, 0x1.4d1e84p-2f, 0x1.413634p-2f, 0x1.354174p-2f, 0x1.2940d4p-2f,
            0x1.1d34bp-2f, 0x1.111d94p-2f, 0x1.04fbfp-2f, 0x1.f1a078p-3f, 0x1.d935d8p-3f,
            0x1.c0b8f8p-3f, 0x1.a82ad8p-3f, 0x1.8f8c68p-3f, 0x1.76de8p-3f, 0x1.5e2228p-3f,
            0x1.45584p-3f, 0x1.2c81e8p-3f, 0x1.139ff8p-3f, 0x1.f566dp-4f, 0x1.c37a5p-4f,
            0x1.917c9p-4f, 0x1.5f6f1p-4f, 0x1.2d544p-4f, 0x1.f65b4p-5f, 0x1.91facp-5f,
            0x1.2d8aep-5f, 0x1.921e8p-6f, 0x1.9231p-7f,
        },
    },
    .s2 = {
        {
            0, 0x1.6a09e6p-1f,
        },
        {
            0, 0x1.8f8b84p-3f, 0x1.87de2ap-2f, 0x1.1c73b4p-1f, 0x1.6a09e8p-1f,
            0x1.a9b662p-1f, 0x1.d906bap-1f, 0x1.f6297ap-1f,
        },
        {
            0, 0x1.91f66p-5f, 0x1.917a6ep-4f, 0x1.2c8108p-3f, 0x1.8f8b86p-3f,
            0x1.f19f9ap-3f, 0x1.294064p-2f, 0x1.58f9a8p-2f, 0x1.87de2ap-2f, 0x1.b5d102p-2f,
            0x1.e2b5d6p-2f, 0x1.07387cp-1f, 0x1.1c73b6p-1f, 0x1.30ff82p-1f, 0x1.44cf34p-1f,
            0x1.57d694p-1f, 0x1.6a09e8p-1f, 0x1.7b5df2p-1f, 0x1.8bc808p-1f, 0x1.9b3e04p-1f,
            0x1.a9b664p-1f, 0x1.b72836p-1f, 0x1.c38b2ep-1f, 0x1.ced7aep-1f, 0x1.d906bcp-1f,
            0x1.e21212p-1f, 0x1.e9f416p-1f, 0x1.f0a7eep-1f, 0x1.f6297cp-1f, 0x1.fa7554p-1f,
            0x1.fd88d8p-1f, 0x1.ff621ep-1f,
        },
        {
            0, 0x1.921d2p-7f, 0x1.92155ep-6f, 0x1.2d8656p-5f, 0x1.91f65ep-5f,
            0x1.f656e6p-5f, 0x1.2d5208p-4f, 0x1.5f6cfep-4f, 0x1.917a6ap-4f, 0x1.c37858p-4f,
            0x1.f564ep-4f, 0x1.139f0ap-3f, 0x1.2c8104p-3f, 0x1.455768p-3f, 0x1.5e214p-3f,
            0x1.76dd9ap-3f, 0x1.8f8b8p-3f, 0x1.a829fep-3f, 0x1.c0b822p-3f, 0x1.d934f6p-3f,
            0x1.f19f8ep-3f, 0x1.04fb7cp-2f, 0x1.111d2p-2f, 0x1.1d343ep-2f, 0x1.29405ap-2f,
            0x1.354102p-2f, 0x1.4135cp-2f, 0x1.4d1e1ap-2f, 0x1.58f99cp-2f, 0x1.64c7d2p-2f,
            0x1.708846p-2f, 0x1.7c3a84p-2f, 0x1.87de1ap-2f, 0x1.937294p-2f, 0x1.9ef78p-2f,
            0x1.aa6c6ep-2f, 0x1.b5d0ecp-2f, 0x1.c12488p-2f, 0x1.cc66d2p-2f, 0x1.d7975cp-2f,
            0x1.e2b5b6p-2f, 0x1.edc178p-2f, 0x1.f8ba2ep-2f, 0x1.01cfb8p-1f, 0x1.073866p-1f,
            0x1.0c96fp-1f, 0x1.11eb2p-1f, 0x1.1734cp-1f, 0x1.1c739ep-1f, 0x1.21a784p-1f,
            0x1.26d03ep-1f, 0x1.2bed9ap-1f, 0x1.30ff66p-1f, 0x1.360572p-1f, 0x1.3aff8ap-1f,
            0x1.3fed7cp-1f, 0x1.44cf18p-1f, 0x1.49a43p-1f, 0x1.4e6c9p-1f, 0x1.53280ep-1f,
            0x1.57d676p-1f, 0x1.5c779cp-1f, 0x1.610b56p-1f, 0x1.659172p-1f, 0x1.6a09c6p-1f,
            0x1.6e7422p-1f, 0x1.72d062p-1f, 0x1.771e54p-1f, 0x1.7b5dccp-1f, 0x1.7f8ea8p-1f,
            0x1.83b0b8p-1f, 0x1.87c3d8p-1f, 0x1.8bc7dcp-1f, 0x1.8fbcap-1f, 0x1.93a1f8p-1f,
            0x1.9777c2p-1f, 0x1.9b3dd6p-1f, 0x1.9ef41p-1f, 0x1.a29a4ap-1f, 0x1.a63064p-1f,
            0x1.a9b632p-1f, 0x1.ad2b98p-1f, 0x1.b09072p-1f, 0x1.b3e4a2p-1f, 0x1.b728p-1f,
            0x1.ba5a72p-1f, 0x1.bd7bd6p-1f, 0x1.c08c0cp-1f, 0x1.c38af8p-1f, 0x1.c6787cp-1f,
            0x1.c9547cp-1f, 0x1.cc1ed8p-1f, 0x1.ced776p-1f, 0x1.d17e4p-1f, 0x1.d41312p-1f,
            0x1.d695dcp-1f, 0x1.d9067ep-1f, 0x1.db64e6p-1f, 0x1.ddb0f8p-1f, 0x1.dfeaa2p-1f,
            0x1.e211cep-1f, 0x1.e42664p-1f, 0x1.e6284ap-1f, 0x1.e81776p-1f, 0x1.e9f3cep-1f,
            0x1.ebbd46p-1f, 0x1.ed73c6p-1f, 0x1.ef1744p-1f, 0x1.f0a7a8p-1f, 0x1.f224eap-1f,
            0x1.f38ef4p-1f, 0x1.f4e5bcp-1f, 0x1.f62934p-1f, 0x1.f75952p-1f, 0x1.f8760ap-1f,
            0x1.f97f4cp-1f, 0x1.fa750ep-1f, 0x1.fb574cp-1f, 0x1.fc25fap-1f, 0x1.fce112p-1f,
            0x1.fd888ap-1f, 0x1.fe1c6p-1f, 0x1.fe9c8ap-1f, 0x1.ff0904p-1f, 0x1.ff61ccp-1f,
            0x1.ffa6dcp-1f, 0x1.ffd832p-1f, 0x1.fff5cap-1f,
        },
    },
};

/* The butterflies of stage st without twiddles (i = 0 and i = kx). */
static void fht_stage_first(float *fz, const float *fn, int kx, int k1, int k2, int k3, int k4)
{
    float *fi = fz, *gi = fz + kx;
    do {
        float f0, f1, f2, f3;
        f1 = fi[0] - fi[k1];
        f0 = fi[0] + fi[k1];
        f3 = fi[k2] - fi[k3];
        f2 = fi[k2] + fi[k3];
        fi[k2] = f0 - f2;
        fi[0] = f0 + f2;
        fi[k3] = f1 - f3;
        fi[k1] = f1 + f3;
        f1 = gi[0] - gi[k1];
        f0 = gi[0] + gi[k1];
        f3 = SQRT2 * gi[k3];
        f2 = SQRT2 * gi[k2];
        gi[k2] = f0 - f2;
        gi[0] = f0 + f2;
        gi[k3] = f1 - f3;
        gi[k1] = f1 + f3;
        gi += k4;
        fi += k4;
    } while (fi < fn);
}

/* The twiddled butterflies of i .. i + 3 (gi: k1 - i - 3 .. k1 - i,
 * reversed into the lanes of their i), in every block. Lanes set in keep
 * (i already done) store back what they loaded. */
static void fht_stage_i4_sse2(float *fz, const float *fn, int st, int i, int k1, int k2,
                              int k3, int k4, __m128 keep)
{
    __m128 const c1 = _mm_loadu_ps(&ct_mp3_fht_tw.c1[st][i]);
    __m128 const s1 = _mm_loadu_ps(&ct_mp3_fht_tw.s1[st][i]);
    __m128 const c2 = _mm_loadu_ps(&ct_mp3_fht_tw.c2[st][i]);
    __m128 const s2 = _mm_loadu_ps(&ct_mp3_fht_tw.s2[st][i]);
    float *fi = fz + i, *gi = fz + k1 - i - 3;
    do {
        __m128 a, b, g0, f0, f1, g1, f2, g2, f3, g3;
        __m128 const F0 = _mm_loadu_ps(fi), FK1 = _mm_loadu_ps(fi + k1);
        __m128 const FK2 = _mm_loadu_ps(fi + k2), FK3 = _mm_loadu_ps(fi + k3);
        __m128 const G0 = rev4(_mm_loadu_ps(gi)), GK1 = rev4(_mm_loadu_ps(gi + k1));
        __m128 const GK2 = rev4(_mm_loadu_ps(gi + k2)), GK3 = rev4(_mm_loadu_ps(gi + k3));
        b = _mm_sub_ps(_mm_mul_ps(s2, FK1), _mm_mul_ps(c2, GK1));
        a = _mm_add_ps(_mm_mul_ps(c2, FK1), _mm_mul_ps(s2, GK1));
        f1 = _mm_sub_ps(F0, a);
        f0 = _mm_add_ps(F0, a);
        g1 = _mm_sub_ps(G0, b);
        g0 = _mm_add_ps(G0, b);
        b = _mm_sub_ps(_mm_mul_ps(s2, FK3), _mm_mul_ps(c2, GK3));
        a = _mm_add_ps(_mm_mul_ps(c2, FK3), _mm_mul_ps(s2, GK3));
        f3 = _mm_sub_ps(FK2, a);
        f2 = _mm_add_ps(FK2, a);
        g3 = _mm_sub_ps(GK2, b);
        g2 = _mm_add_ps(GK2, b);
        b = _mm_sub_ps(_mm_mul_ps(s1, f2), _mm_mul_ps(c1, g3));
        a = _mm_add_ps(_mm_mul_ps(c1, f2), _mm_mul_ps(s1, g3));
        _mm_storeu_ps(fi + k2, sel_ps(keep, FK2, _mm_sub_ps(f0, a)));
        _mm_storeu_ps(fi, sel_ps(keep, F0, _mm_add_ps(f0, a)));
        _mm_storeu_ps(gi + k3, rev4(sel_ps(keep, GK3, _mm_sub_ps(g1, b))));
        _mm_storeu_ps(gi + k1, rev4(sel_ps(keep, GK1, _mm_add_ps(g1, b))));
        b = _mm_sub_ps(_mm_mul_ps(c1, g2), _mm_mul_ps(s1, f3));
        a = _mm_add_ps(_mm_mul_ps(s1, g2), _mm_mul_ps(c1, f3));
        _mm_storeu_ps(gi + k2, rev4(sel_ps(keep, GK2, _mm_sub_ps(g0, a))));
        _mm_storeu_ps(gi, rev4(sel_ps(keep, G0, _mm_add_ps(g0, a))));
        _mm_storeu_ps(fi + k3, sel_ps(keep, FK3, _mm_sub_ps(f1, b)));
        _mm_storeu_ps(fi + k1, sel_ps(keep, FK1, _mm_add_ps(f1, b)));
        gi += k4;
        fi += k4;
    } while (fi < fn);
}

/* x * SQRT2 in double, rounded to float, lane-wise */
INLINE __m128 mul_sqrt2_sse2(__m128 x)
{
    __m128d const r2 = _mm_set1_pd(SQRT2);
    __m128d const lo = _mm_mul_pd(r2, _mm_cvtps_pd(x));
    __m128d const hi = _mm_mul_pd(r2, _mm_cvtps_pd(_mm_movehl_ps(x, x)));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}

/* The first stage (kx = 2: blocks of 16 lines, positions p of a block:
 * i = 0 at 0, 4, 8, 12, kx at 2, 6, 10, 14, i = 1 at 1, 5, 9, 13 and
 * k1 - 1 at 3, 7, 11, 15), 4 blocks at a time in lanes: transposed in,
 * every butterfly of the stage, transposed out. */
static void fht_stage0_sse2(float *fz, const float *fn)
{
    float const c1s = ct_mp3_fht_tw.c1[0][1], s1s = ct_mp3_fht_tw.s1[0][1];
    float const c2s = ct_mp3_fht_tw.c2[0][1], s2s = ct_mp3_fht_tw.s2[0][1];
    __m128 const c1 = _mm_set1_ps(c1s), s1 = _mm_set1_ps(s1s);
    __m128 const c2 = _mm_set1_ps(c2s), s2 = _mm_set1_ps(s2s);
    float *blk;

    for (blk = fz; blk < fn; blk += 64) {
        __m128 P[16];
        int r;
        for (r = 0; r < 4; r++) {
            __m128 r0 = _mm_loadu_ps(blk + 4 * r);
            __m128 r1 = _mm_loadu_ps(blk + 16 + 4 * r);
            __m128 r2 = _mm_loadu_ps(blk + 32 + 4 * r);
            __m128 r3 = _mm_loadu_ps(blk + 48 + 4 * r);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            P[4 * r + 0] = r0;
            P[4 * r + 1] = r1;
            P[4 * r + 2] = r2;
            P[4 * r + 3] = r3;
        }
        {
            __m128 f0, f1, f2, f3;
            /* fi: 0, 4, 8, 12 */
            f1 = _mm_sub_ps(P[0], P[4]);
            f0 = _mm_add_ps(P[0], P[4]);
            f3 = _mm_sub_ps(P[8], P[12]);
            f2 = _mm_add_ps(P[8], P[12]);
            P[8] = _mm_sub_ps(f0, f2);
            P[0] = _mm_add_ps(f0, f2);
            P[12] = _mm_sub_ps(f1, f3);
            P[4] = _mm_add_ps(f1, f3);
            /* gi: 2, 6, 10, 14 */
            f1 = _mm_sub_ps(P[2], P[6]);
            f0 = _mm_add_ps(P[2], P[6]);
            f3 = mul_sqrt2_sse2(P[14]);
            f2 = mul_sqrt2_sse2(P[10]);
            P[10] = _mm_sub_ps(f0, f2);
            P[2] = _mm_add_ps(f0, f2);
            P[14] = _mm_sub_ps(f1, f3);
            P[6] = _mm_add_ps(f1, f3);
        }
        {
            /* i = 1: fi 1, 5, 9, 13; gi 3, 7, 11, 15 */
            __m128 a, b, g0, f0, f1, g1, f2, g2, f3, g3;
            b = _mm_sub_ps(_mm_mul_ps(s2, P[5]), _mm_mul_ps(c2, P[7]));
            a = _mm_add_ps(_mm_mul_ps(c2, P[5]), _mm_mul_ps(s2, P[7]));
            f1 = _mm_sub_ps(P[1], a);
            f0 = _mm_add_ps(P[1], a);
            g1 = _mm_sub_ps(P[3], b);
            g0 = _mm_add_ps(P[3], b);
            b = _mm_sub_ps(_mm_mul_ps(s2, P[13]), _mm_mul_ps(c2, P[15]));
            a = _mm_add_ps(_mm_mul_ps(c2, P[13]), _mm_mul_ps(s2, P[15]));
            f3 = _mm_sub_ps(P[9], a);
            f2 = _mm_add_ps(P[9], a);
            g3 = _mm_sub_ps(P[11], b);
            g2 = _mm_add_ps(P[11], b);
            b = _mm_sub_ps(_mm_mul_ps(s1, f2), _mm_mul_ps(c1, g3));
            a = _mm_add_ps(_mm_mul_ps(c1, f2), _mm_mul_ps(s1, g3));
            P[9] = _mm_sub_ps(f0, a);
            P[1] = _mm_add_ps(f0, a);
            P[15] = _mm_sub_ps(g1, b);
            P[7] = _mm_add_ps(g1, b);
            b = _mm_sub_ps(_mm_mul_ps(c1, g2), _mm_mul_ps(s1, f3));
            a = _mm_add_ps(_mm_mul_ps(s1, g2), _mm_mul_ps(c1, f3));
            P[11] = _mm_sub_ps(g0, a);
            P[3] = _mm_add_ps(g0, a);
            P[13] = _mm_sub_ps(f1, b);
            P[5] = _mm_add_ps(f1, b);
        }
        for (r = 0; r < 4; r++) {
            __m128 r0 = P[4 * r + 0], r1 = P[4 * r + 1], r2 = P[4 * r + 2], r3 = P[4 * r + 3];
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_storeu_ps(blk + 4 * r, r0);
            _mm_storeu_ps(blk + 16 + 4 * r, r1);
            _mm_storeu_ps(blk + 32 + 4 * r, r2);
            _mm_storeu_ps(blk + 48 + 4 * r, r3);
        }
    }
}

/* fht: the first stage by fht_stage0_sse2; then per stage the butterflies
 * without twiddles (scalar), and the twiddled ones of w = 8 (vec8, if
 * given) or 4 neighbouring i at a time; the last i are one vector ending at
 * kx - 1 whose lanes of i already done are kept. */
INLINE void fht_vec(float *fz, int n, ct_mp3_fht_stage_vec_fn vec8)
{
    const float *fn;
    int k4, st;

    n <<= 1;
    fn = fz + n;
    fht_stage0_sse2(fz, fn);
    k4 = 16;
    st = 1;
    while (k4 < n) {
        int i, k1, k2, k3, kx;
        kx = k4 >> 1;
        k1 = k4;
        k2 = k4 << 1;
        k3 = k2 + k1;
        k4 = k2 << 1;
        fht_stage_first(fz, fn, kx, k1, k2, k3, k4);
        i = 1;
        if (vec8 && kx > 8) {
            for (; i + 8 <= kx; i += 8)
                vec8(fz, fn, st, i, k1, k2, k3, k4, 0);
            if (i < kx)
                vec8(fz, fn, st, kx - 8, k1, k2, k3, k4, i - (kx - 8));
        }
        else {
            for (; i + 4 <= kx; i += 4)
                fht_stage_i4_sse2(fz, fn, st, i, k1, k2, k3, k4, _mm_setzero_ps());
            if (i < kx) {
                /* keep the first i - (kx - 4) lanes */
                int const done = i - (kx - 4);
                __m128i const lane = _mm_setr_epi32(0, 1, 2, 3);
                __m128 const keep =
                    _mm_castsi128_ps(_mm_cmplt_epi32(lane, _mm_set1_epi32(done)));
                fht_stage_i4_sse2(fz, fn, st, kx - 4, k1, k2, k3, k4, keep);
            }
        }
        st++;
    }
}

void ct_mp3_fht_sse2(float *fz, int n)
{
    fht_vec(fz, n, NULL);
}

void ct_mp3_fht_vec8_sse2(float *fz, int n, ct_mp3_fht_stage_vec_fn vec8)
{
    fht_vec(fz, n, vec8);
}
