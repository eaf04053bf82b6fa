"""What a technician should check for each fault the MCU latches (PROTOCOL.md §4 faults), in English and Chinese.

Side N is the wall and lift plate in front of seat N. The service shows the hint with the fault code and stops
the table; after the repair the technician restarts the service, which clears the fault and repeats the step.
"""

from __future__ import annotations

from firmware_bridge.messages import FaultKind

# Keyed by fault name, or by ``NAME/MECHANISM`` where the mechanism changes what to check (looked up first).
_HINTS: dict[str, tuple[str, str]] = {
    FaultKind.JAM.name: (
        "the stacker of side {side} stopped: open the side {side} panel, take out the tile stuck or lying askew in "
        "its track, wipe the count sensor, then restart",
        "第{side}边码牌机构卡牌：打开该边侧板，取出卡住或歪斜的牌，擦净计数传感器后重新启动",
    ),
    FaultKind.MISCOUNT.name: (
        "the wall of side {side} came out with the wrong number of tiles: a tile is missing or foreign; count the "
        "set, check the floor of the machine and the count sensor of side {side}",
        "第{side}边牌墙张数不对：缺牌或混入别的牌；清点整副牌，检查机内底部和该边计数传感器",
    ),
    FaultKind.TRAVEL_TIMEOUT.name: (
        "the lift plate of side {side} did not reach its switch: look for a tile under the plate and check the "
        "limit switch and its wire",
        "第{side}边升降台未到位：检查台下是否有牌，检查限位开关及其接线",
    ),
    f"{FaultKind.TRAVEL_TIMEOUT.name}/HATCH": (
        "the centre hatch did not reach its switch in time: look for a tile caught in the hatch, check its open and "
        "closed switches and their wires",
        "中心升降台未在规定时间内到位：检查是否有牌卡住，检查其开、合限位开关及接线",
    ),
    f"{FaultKind.RUN_TIMEOUT.name}/DISC": (
        "the shuffling disc ran too long without counting its turns: look for tiles blocking the disc, check its "
        "belt and the index sensor under it and its wire",
        "洗牌大盘运转超时而未计满圈数：检查大盘是否被牌卡住，检查皮带、盘下的计圈传感器及其接线",
    ),
    f"{FaultKind.RUN_TIMEOUT.name}/DICE": (
        "the dice did not settle in time: check the dice dome and its wiring",
        "骰子超时未停：检查骰子罩及其接线",
    ),
    FaultKind.RUN_TIMEOUT.name: (
        "the wall of side {side} took too long to build, its stacks coming ever slower: clean the stacker of side "
        "{side} and its count sensor, check its motor",
        "第{side}边码牌越来越慢、超时未完成：清洁该边码牌机构及计数传感器，检查其电机",
    ),
    f"{FaultKind.OVERTRAVEL.name}/HATCH": (
        "the hatch motor made more than four travels of steps without reaching its switch: the switch or its wire is "
        "broken, or the hatch slips on its drive",
        "中心升降电机走满四倍行程仍未触发限位：限位开关或接线损坏，或传动打滑",
    ),
    FaultKind.OVERTRAVEL.name: (
        "the lift motor of side {side} made more than four travels of steps without reaching its switch: the switch or "
        "its wire is broken, or the plate slips on its drive",
        "第{side}边升降电机走满四倍行程仍未触发限位：限位开关或接线损坏，或升降台传动打滑",
    ),
    FaultKind.DRIVER_FAULT.name: (
        "a motor driver reports a fault with its motor stopped: check the motor supply, the driver and the motor's "
        "wires for a short; the fault cannot be cleared while the driver reports it",
        "电机驱动器在电机停止时报故障：检查电机电源、驱动器及电机线是否短路；驱动器报警未消除前无法清除故障",
    ),
    FaultKind.OVERCURRENT.name: (
        "a motor drew too much current: something blocks the mechanism; look for a foreign object on the disc",
        "电机过流：机构被卡住，检查转盘上是否有异物",
    ),
    FaultKind.MCU_RESET.name: (
        "the table's board restarted (power dip or watchdog): check the power supply and its connector",
        "主控板重启（电压跌落或看门狗）：检查电源及接头",
    ),
    FaultKind.HOST_SILENT.name: (
        "the board heard nothing from the controller and stopped the motors: check the serial cable",
        "主控板收不到控制器信号而停机：检查串口线",
    ),
    FaultKind.EMERGENCY_STOP.name: (
        "the table was stopped on purpose (stop button or lid): close the lid and keep hands out of the mechanism",
        "紧急停机（急停按钮或盖板）：盖好盖板，手勿伸入机构",
    ),
}


def hint(code: str, chinese: bool = False) -> str:
    """The hint for a fault code such as ``JAM/STACKER/side2``."""
    name, *rest = code.split("/")
    side = next((part.removeprefix("side") for part in rest if part.startswith("side")), "?")
    texts = _HINTS.get(f"{name}/{rest[0]}" if rest else name) or _HINTS.get(name)
    if texts is None:
        texts = (f"unknown fault {code}: see the table's service manual", f"未知故障 {code}：见维修手册")
    return texts[chinese].format(side=side)
