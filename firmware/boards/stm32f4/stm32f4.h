/* The STM32F405 registers this firmware touches, from RM0090 (no vendor SDK): addresses and bits only. */
#ifndef STM32F4_H
#define STM32F4_H

#include <stdint.h>

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* Cortex-M4 system control space */
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* the processor clock */
#define SYST_CSR_COUNTFLAG (1u << 16) /* counted to 0 since last read (reading clears it) */
#define NVIC_ISER(n) REG32(0xE000E100u + 4u * (n))
#define NVIC_ISPR(n) REG32(0xE000E200u + 4u * (n))
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (irq)))
#define SCB_ICSR REG32(0xE000ED04u)
#define SCB_ICSR_PENDSTSET (1u << 26) /* the SysTick exception is pending (not yet taken) */
#define SCB_AIRCR REG32(0xE000ED0Cu)
#define SCB_AIRCR_SYSRESETREQ (0x05FA0000u | (1u << 2))
#define SCB_CPACR REG32(0xE000ED88u)

/* RCC (reads 0 under QEMU: nothing may wait on its flags there) */
#define RCC_BASE 0x40023800u
#define RCC_CR REG32(RCC_BASE + 0x00u)
#define RCC_PLLCFGR REG32(RCC_BASE + 0x04u)
#define RCC_AHB1ENR REG32(RCC_BASE + 0x30u)
#define RCC_AHB2ENR REG32(RCC_BASE + 0x34u)
#define RCC_APB1ENR REG32(RCC_BASE + 0x40u)
#define RCC_APB2ENR REG32(RCC_BASE + 0x44u)
#define RCC_CSR REG32(RCC_BASE + 0x74u)
#define RCC_CSR_LSION (1u << 0)
#define RCC_CSR_RMVF (1u << 24)
#define RCC_CSR_BORRSTF (1u << 25)
#define RCC_CSR_PINRSTF (1u << 26)
#define RCC_CSR_PORRSTF (1u << 27)
#define RCC_CSR_SFTRSTF (1u << 28)
#define RCC_CSR_IWDGRSTF (1u << 29)
#define RCC_CSR_WWDGRSTF (1u << 30)
#define RCC_CSR_LPWRRSTF (1u << 31)
#define RCC_CR_PLLON (1u << 24)
#define RCC_PLLCFGR_M(m) ((uint32_t)(m) << 0)
#define RCC_PLLCFGR_N(n) ((uint32_t)(n) << 6)
#define RCC_PLLCFGR_P2 (0u << 16)
#define RCC_PLLCFGR_SRC_HSI (0u << 22)
#define RCC_PLLCFGR_Q(q) ((uint32_t)(q) << 24)
#define RCC_AHB1ENR_GPIO(port) (1u << (port)) /* port 0 = A */
#define RCC_AHB2ENR_RNG (1u << 6)
#define RCC_APB1ENR_TIM2 (1u << 0)
#define RCC_APB1ENR_TIM3 (1u << 1)
#define RCC_APB1ENR_TIM4 (1u << 2)
#define RCC_APB1ENR_USART2 (1u << 17)
#define RCC_APB2ENR_USART1 (1u << 4)

/* GPIO ports A.. at 0x40020000 + 0x400 per port */
#define GPIO_BASE(port) (0x40020000u + 0x400u * (port))
#define GPIO_MODER(port) REG32(GPIO_BASE(port) + 0x00u)
#define GPIO_OTYPER(port) REG32(GPIO_BASE(port) + 0x04u)
#define GPIO_OSPEEDR(port) REG32(GPIO_BASE(port) + 0x08u)
#define GPIO_PUPDR(port) REG32(GPIO_BASE(port) + 0x0Cu)
#define GPIO_IDR(port) REG32(GPIO_BASE(port) + 0x10u)
#define GPIO_ODR(port) REG32(GPIO_BASE(port) + 0x14u)
#define GPIO_BSRR(port) REG32(GPIO_BASE(port) + 0x18u)
#define GPIO_AFRL(port) REG32(GPIO_BASE(port) + 0x20u)
#define GPIO_AFRH(port) REG32(GPIO_BASE(port) + 0x24u)
#define GPIO_MODE_INPUT 0u
#define GPIO_MODE_OUTPUT 1u
#define GPIO_MODE_AF 2u
#define GPIO_PULL_UP 1u

/* USART (USART1 at 0x40011000 on APB2, USART2 at 0x40004400 on APB1) */
#define USART1_BASE 0x40011000u
#define USART2_BASE 0x40004400u
#define USART_SR(base) REG32((base) + 0x00u)
#define USART_DR(base) REG32((base) + 0x04u)
#define USART_BRR(base) REG32((base) + 0x08u)
#define USART_CR1(base) REG32((base) + 0x0Cu)
#define USART_CR2(base) REG32((base) + 0x10u)
#define USART_CR3(base) REG32((base) + 0x14u)
#define USART_SR_ORE (1u << 3)
#define USART_SR_RXNE (1u << 5)
#define USART_SR_TXE (1u << 7)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_RXNEIE (1u << 5)
#define USART_CR1_TXEIE (1u << 7)
#define USART_CR1_UE (1u << 13)
#define USART1_IRQ 37u
#define USART2_IRQ 38u

/* General-purpose timers: TIM2 paces the steppers, TIM3 / TIM4 make the PWM of the DC motors (all on APB1) */
#define TIM2_BASE 0x40000000u
#define TIM3_BASE 0x40000400u
#define TIM4_BASE 0x40000800u
#define TIM_CR1(base) REG32((base) + 0x00u)
#define TIM_DIER(base) REG32((base) + 0x0Cu)
#define TIM_SR(base) REG32((base) + 0x10u)
#define TIM_EGR(base) REG32((base) + 0x14u)
#define TIM_CCMR1(base) REG32((base) + 0x18u)
#define TIM_CCMR2(base) REG32((base) + 0x1Cu)
#define TIM_CCER(base) REG32((base) + 0x20u)
#define TIM_PSC(base) REG32((base) + 0x28u)
#define TIM_ARR(base) REG32((base) + 0x2Cu)
#define TIM_CCR(base, ch) REG32((base) + 0x34u + 4u * ((ch) - 1u))
#define TIM_CR1_CEN (1u << 0)
#define TIM_CR1_ARPE (1u << 7)
#define TIM_EGR_UG (1u << 0)
#define TIM_DIER_UIE (1u << 0)
#define TIM_SR_UIF (1u << 0)
#define TIM2_IRQ 28u
#define TIM_CCMR_PWM1 (6u << 4) /* OCxM = PWM mode 1, for the low channel of a CCMR register */
#define TIM_CCMR_OCPE (1u << 3)

/* Independent watchdog (not modelled by QEMU) */
#define IWDG_BASE 0x40003000u
#define IWDG_KR REG32(IWDG_BASE + 0x00u)
#define IWDG_PR REG32(IWDG_BASE + 0x04u)
#define IWDG_RLR REG32(IWDG_BASE + 0x08u)
#define IWDG_KEY_FEED 0xAAAAu
#define IWDG_KEY_UNLOCK 0x5555u
#define IWDG_KEY_START 0xCCCCu

/* Random number generator (AHB2), clocked by the PLL's 48 MHz output */
#define RNG_BASE 0x50060800u
#define RNG_CR REG32(RNG_BASE + 0x00u)
#define RNG_SR REG32(RNG_BASE + 0x04u)
#define RNG_DR REG32(RNG_BASE + 0x08u)
#define RNG_CR_RNGEN (1u << 2)
#define RNG_SR_DRDY (1u << 0)
#define RNG_SR_SEIS (1u << 6)

/* Debug: stop the independent watchdog while a debugger halts the core */
#define DBGMCU_APB1_FZ REG32(0xE0042008u)
#define DBGMCU_APB1_FZ_IWDG_STOP (1u << 12)

/* Unique device ID, 96 bits */
#define UID_BASE 0x1FFF7A10u

static inline void irq_disable(void) { __asm__ volatile("cpsid i" ::: "memory"); }
static inline void irq_enable(void) { __asm__ volatile("cpsie i" ::: "memory"); }
static inline void wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void nvic_enable(uint32_t irq) { NVIC_ISER(irq / 32u) = 1u << (irq % 32u); }
static inline void nvic_pend(uint32_t irq) { NVIC_ISPR(irq / 32u) = 1u << (irq % 32u); }

#endif
