/*
 * The CELT band energies (encoder side of celt/quant_bands.c): log2 of the
 * band amplitudes, the coarse quantization (one intra and one inter pass,
 * the cheaper kept), the fine quantization and the leftover bits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"
#include "mathops.h"
#include "rate.h"

#define IMIN(a, b) ((a) < (b) ? (a) : (b))
#define IMAX(a, b) ((a) > (b) ? (a) : (b))

/* The standard mode's band count (nbEBands) */
#define NB_EBANDS 21

/* Mean energy in each band quantized in Q4 and converted back to float */
const float ct_celt_eMeans[25] = {
      6.437500f, 6.250000f, 5.750000f, 5.312500f, 5.062500f,
      4.812500f, 4.500000f, 4.375000f, 4.875000f, 4.687500f,
      4.562500f, 4.437500f, 4.875000f, 4.625000f, 4.312500f,
      4.500000f, 4.375000f, 4.625000f, 4.750000f, 4.437500f,
      3.750000f, 3.750000f, 3.750000f, 3.750000f, 3.750000f
};

/* prediction coefficients: 0.9, 0.8, 0.65, 0.5 (the double quotients
 * rounded to float, as the float build's initializers) */
static const float pred_coef[4] = {29440/32768., 26112/32768., 21248/32768., 16384/32768.};
static const float beta_coef[4] = {30147/32768., 22282/32768., 12124/32768., 6554/32768.};
static const float beta_intra = 4915/32768.;

/*Parameters of the Laplace-like probability models used for the coarse energy.
  There is one pair of parameters for each frame size, prediction type
   (inter/intra), and band number.
  The first number of each pair is the probability of 0, and the second is the
   decay rate, both in Q8 precision.*/
static const unsigned char e_prob_model[4][2][42] = {
   /*120 sample frames.*/
   {
      /*Inter*/
      {
          72, 127,  65, 129,  66, 128,  65, 128,  64, 128,  62, 128,  64, 128,
          64, 128,  92,  78,  92,  79,  92,  78,  90,  79, 116,  41, 115,  40,
         114,  40, 132,  26, 132,  26, 145,  17, 161,  12, 176,  10, 177,  11
      },
      /*Intra*/
      {
          24, 179,  48, 138,  54, 135,  54, 132,  53, 134,  56, 133,  55, 132,
          55, 132,  61, 114,  70,  96,  74,  88,  75,  88,  87,  74,  89,  66,
          91,  67, 100,  59, 108,  50, 120,  40, 122,  37,  97,  43,  78,  50
      }
   },
   /*240 sample frames.*/
   {
      /*Inter*/
      {
          83,  78,  84,  81,  88,  75,  86,  74,  87,  71,  90,  73,  93,  74,
          93,  74, 109,  40, 114,  36, 117,  34, 117,  34, 143,  17, 145,  18,
         146,  19, 162,  12, 165,  10, 178,   7, 189,   6, 190,   8, 177,   9
      },
      /*Intra*/
      {
          23, 178,  54, 115,  63, 102,  66,  98,  69,  99,  74,  89,  71,  91,
          73,  91,  78,  89,  86,  80,  92,  66,  93,  64, 102,  59, 103,  60,
         104,  60, 117,  52, 123,  44, 138,  35, 133,  31,  97,  38,  77,  45
      }
   },
   /*480 sample frames.*/
   {
      /*Inter*/
      {
          61,  90,  93,  60, 105,  42, 107,  41, 110,  45, 116,  38, 113,  38,
         112,  38, 124,  26, 132,  27, 136,  19, 140,  20, 155,  14, 159,  16,
         158,  18, 170,  13, 177,  10, 187,   8, 192,   6, 175,   9, 159,  10
      },
      /*Intra*/
      {
          21, 178,  59, 110,  71,  86,  75,  85,  84,  83,  91,  66,  88,  73,
          87,  72,  92,  75,  98,  72, 105,  58, 107,  54, 115,  52, 114,  55,
         112,  56, 129,  51, 132,  40, 150,  33, 140,  29,  98,  35,  77,  42
      }
   },
   /*960 sample frames.*/
   {
      /*Inter*/
      {
          42, 121,  96,  66, 108,  43, 111,  40, 117,  44, 123,  32, 120,  36,
         119,  33, 127,  33, 134,  34, 139,  21, 147,  23, 152,  20, 158,  25,
         154,  26, 166,  21, 173,  16, 184,  13, 184,  10, 150,  13, 139,  15
      },
      /*Intra*/
      {
          22, 178,  63, 114,  74,  82,  84,  83,  92,  82, 103,  62,  96,  72,
          96,  67, 101,  73, 107,  72, 113,  55, 118,  52, 125,  52, 118,  52,
         117,  55, 135,  49, 137,  39, 157,  32, 145,  29,  97,  33,  77,  40
      }
   }
};

static const unsigned char small_energy_icdf[3]={2,1,0};

static float loss_distortion(const float *eBands, float *oldEBands, int start, int end, int len, int C)
{
   int c, i;
   float dist = 0;
   c=0; do {
      for (i=start;i<end;i++)
      {
         float d = eBands[i+c*len] - oldEBands[i+c*len];
         dist = dist + d*d;
      }
   } while (++c<C);
   return 200 < dist ? 200 : dist;
}

static int quant_coarse_energy_impl(const ct_celt_mode *m, int start, int end,
      const float *eBands, float *oldEBands,
      int32_t budget, int32_t tell,
      const unsigned char *prob_model, float *error, ct_ec_enc *enc,
      int C, int LM, int intra, float max_decay, int lfe)
{
   int i, c;
   int badness = 0;
   float prev[2] = {0,0};
   float coef;
   float beta;

   if (tell+3 <= budget)
      ct_ec_enc_bit_logp(enc, intra, 3);
   if (intra)
   {
      coef = 0;
      beta = beta_intra;
   } else {
      beta = beta_coef[LM];
      coef = pred_coef[LM];
   }

   /* Encode at a fixed coarse resolution */
   for (i=start;i<end;i++)
   {
      c=0;
      do {
         int bits_left;
         int qi, qi0;
         float q;
         float x;
         float f, tmp;
         float oldE;
         float decay_bound;
         x = eBands[i+c*m->nbEBands];
         oldE = -9.f > oldEBands[i+c*m->nbEBands] ? -9.f : oldEBands[i+c*m->nbEBands];
         f = x-coef*oldE-prev[c];
         /* Rounding to nearest integer here is really important! */
         qi = (int)floor(.5f+f);
         decay_bound = (-28.f > oldEBands[i+c*m->nbEBands] ? -28.f : oldEBands[i+c*m->nbEBands]) - max_decay;
         /* Prevent the energy from going down too quickly (e.g. for bands
            that have just one bin) */
         if (qi < 0 && x < decay_bound)
         {
            qi += (int)(decay_bound-x);
            if (qi > 0)
               qi = 0;
         }
         qi0 = qi;
         /* If we don't have enough bits to encode all the energy, just assume
             something safe. */
         tell = ct_ec_tell(enc);
         bits_left = budget-tell-3*C*(end-i);
         if (i!=start && bits_left < 30)
         {
            if (bits_left < 24)
               qi = IMIN(1, qi);
            if (bits_left < 16)
               qi = IMAX(-1, qi);
         }
         if (lfe && i>=2)
            qi = IMIN(qi, 0);
         if (budget-tell >= 15)
         {
            int pi;
            pi = 2*IMIN(i,20);
            ct_ec_laplace_encode(enc, &qi,
                  prob_model[pi]<<7, prob_model[pi+1]<<6);
         }
         else if(budget-tell >= 2)
         {
            qi = IMAX(-1, IMIN(qi, 1));
            ct_ec_enc_icdf(enc, 2*qi^-(qi<0), small_energy_icdf, 2);
         }
         else if(budget-tell >= 1)
         {
            qi = IMIN(0, qi);
            ct_ec_enc_bit_logp(enc, -qi, 1);
         }
         else
            qi = -1;
         error[i+c*m->nbEBands] = f - qi;
         badness += abs(qi0-qi);
         q = (float)qi;

         tmp = coef*oldE + prev[c] + q;
         oldEBands[i+c*m->nbEBands] = tmp;
         prev[c] = prev[c] + q - beta*q;
      } while (++c < C);
   }
   return lfe ? 0 : badness;
}

void ct_celt_quant_coarse_energy(const ct_celt_mode *m, int start, int end, int effEnd,
      const float *eBands, float *oldEBands, uint32_t budget,
      float *error, ct_ec_enc *enc, int C, int LM, int nbAvailableBytes,
      int force_intra, float *delayedIntra, int two_pass, int loss_rate, int lfe)
{
   int intra;
   float max_decay;
   float oldEBands_intra[2*NB_EBANDS];
   float error_intra[2*NB_EBANDS];
   ct_ec_enc enc_start_state;
   uint32_t tell;
   int badness1=0;
   int32_t intra_bias;
   float new_distortion;

   intra = force_intra || (!two_pass && *delayedIntra>2*C*(end-start) && nbAvailableBytes > (end-start)*C);
   intra_bias = (int32_t)((budget**delayedIntra*loss_rate)/(C*512));
   new_distortion = loss_distortion(eBands, oldEBands, start, effEnd, m->nbEBands, C);

   tell = ct_ec_tell(enc);
   if (tell+3 > budget)
      two_pass = intra = 0;

   max_decay = 16.f;
   if (end-start>10)
   {
      max_decay = max_decay < .125f*nbAvailableBytes ? max_decay : .125f*nbAvailableBytes;
   }
   if (lfe)
      max_decay = 3.f;
   enc_start_state = *enc;

   memcpy(oldEBands_intra, oldEBands, C*m->nbEBands*sizeof(*oldEBands));

   if (two_pass || intra)
   {
      badness1 = quant_coarse_energy_impl(m, start, end, eBands, oldEBands_intra, budget,
            tell, e_prob_model[LM][1], error_intra, enc, C, LM, 1, max_decay, lfe);
   }

   if (!intra)
   {
      unsigned char *intra_buf;
      ct_ec_enc enc_intra_state;
      int32_t tell_intra;
      uint32_t nstart_bytes;
      uint32_t nintra_bytes;
      int badness2;
      /* The range coder bytes of the intra pass: at most the whole
       * packet, 1275 bytes */
      unsigned char intra_bits[1275];

      tell_intra = ct_ec_tell_frac(enc);

      enc_intra_state = *enc;

      nstart_bytes = ct_ec_range_bytes(&enc_start_state);
      nintra_bytes = ct_ec_range_bytes(&enc_intra_state);
      intra_buf = ct_ec_get_buffer(&enc_intra_state) + nstart_bytes;
      /* Copy bits from intra bit-stream */
      memcpy(intra_bits, intra_buf, nintra_bytes - nstart_bytes);

      *enc = enc_start_state;

      badness2 = quant_coarse_energy_impl(m, start, end, eBands, oldEBands, budget,
            tell, e_prob_model[LM][intra], error, enc, C, LM, 0, max_decay, lfe);

      if (two_pass && (badness1 < badness2 || (badness1 == badness2 && ((int32_t)ct_ec_tell_frac(enc))+intra_bias > tell_intra)))
      {
         *enc = enc_intra_state;
         /* Copy intra bits to bit-stream */
         memcpy(intra_buf, intra_bits, nintra_bytes - nstart_bytes);
         memcpy(oldEBands, oldEBands_intra, C*m->nbEBands*sizeof(*oldEBands));
         memcpy(error, error_intra, C*m->nbEBands*sizeof(*error));
         intra = 1;
      }
   } else {
      memcpy(oldEBands, oldEBands_intra, C*m->nbEBands*sizeof(*oldEBands));
      memcpy(error, error_intra, C*m->nbEBands*sizeof(*error));
   }

   if (intra)
      *delayedIntra = new_distortion;
   else
      *delayedIntra = (pred_coef[LM]*pred_coef[LM])**delayedIntra
            + new_distortion;
}

void ct_celt_quant_fine_energy(const ct_celt_mode *m, int start, int end, float *oldEBands, float *error, int *fine_quant, ct_ec_enc *enc, int C)
{
   int i, c;

   /* Encode finer resolution */
   for (i=start;i<end;i++)
   {
      int16_t frac = 1<<fine_quant[i];
      if (fine_quant[i] <= 0)
         continue;
      c=0;
      do {
         int q2;
         float offset;
         q2 = (int)floor((error[i+c*m->nbEBands]+.5f)*frac);
         if (q2 > frac-1)
            q2 = frac-1;
         if (q2<0)
            q2 = 0;
         ct_ec_enc_bits(enc, q2, fine_quant[i]);
         offset = (q2+.5f)*(1<<(14-fine_quant[i]))*(1.f/16384) - .5f;
         oldEBands[i+c*m->nbEBands] += offset;
         error[i+c*m->nbEBands] -= offset;
      } while (++c < C);
   }
}

void ct_celt_quant_energy_finalise(const ct_celt_mode *m, int start, int end, float *oldEBands, float *error, int *fine_quant, int *fine_priority, int bits_left, ct_ec_enc *enc, int C)
{
   int i, prio, c;

   /* Use up the remaining bits */
   for (prio=0;prio<2;prio++)
   {
      for (i=start;i<end && bits_left>=C ;i++)
      {
         if (fine_quant[i] >= CT_CELT_MAX_FINE_BITS || fine_priority[i]!=prio)
            continue;
         c=0;
         do {
            int q2;
            float offset;
            q2 = error[i+c*m->nbEBands]<0 ? 0 : 1;
            ct_ec_enc_bits(enc, q2, 1);
            offset = (q2-.5f)*(1<<(14-fine_quant[i]-1))*(1.f/16384);
            oldEBands[i+c*m->nbEBands] += offset;
            error[i+c*m->nbEBands] -= offset;
            bits_left--;
         } while (++c < C);
      }
   }
}

void ct_celt_amp2Log2(const ct_celt_mode *m, int effEnd, int end,
      float *bandE, float *bandLogE, int C)
{
   int c, i;
   c=0;
   do {
      for (i=0;i<effEnd;i++)
      {
         bandLogE[i+c*m->nbEBands] =
               ct_celt_log2(bandE[i+c*m->nbEBands])
               - ct_celt_eMeans[i];
      }
      for (i=effEnd;i<end;i++)
         bandLogE[c*m->nbEBands+i] = -14.f;
   } while (++c < C);
}
